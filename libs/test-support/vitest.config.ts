import { projectConfig } from '../../vitest.shared.js';

export default projectConfig('test-support', { isolate: false });
