import { projectConfig } from '../../vitest.shared.js';

export default projectConfig('scheduling', { isolate: false });
