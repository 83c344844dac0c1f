import { projectConfig } from '../../vitest.shared.js';

export default projectConfig('component-config', { isolate: false });
