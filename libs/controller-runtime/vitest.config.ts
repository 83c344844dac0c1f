import { projectConfig } from '../../vitest.shared.js';

export default projectConfig('controller-runtime', { isolate: false });
