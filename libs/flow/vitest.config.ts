import { projectConfig } from '../../vitest.shared.js';

export default projectConfig('flow', { isolate: false });
