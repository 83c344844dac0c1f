import { projectConfig } from '../../vitest.shared.js';

export default projectConfig('admission-plugins', { isolate: false });
