import { projectConfig } from '../../vitest.shared.js';

export default projectConfig('gardenlet', { isolate: false });
