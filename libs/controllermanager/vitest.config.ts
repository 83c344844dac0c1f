import { projectConfig } from '../../vitest.shared.js';

export default projectConfig('controllermanager', { isolate: false });
