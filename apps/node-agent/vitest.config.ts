import { projectConfig } from '../../vitest.shared.js';

export default projectConfig('node-agent', { isolate: false });
