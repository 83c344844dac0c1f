import { projectConfig } from '../../vitest.shared.js';

export default projectConfig('secrets-manager', { isolate: false });
