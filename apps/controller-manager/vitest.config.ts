import { projectConfig } from '../../vitest.shared.js';

export default projectConfig('controller-manager', { isolate: false });
