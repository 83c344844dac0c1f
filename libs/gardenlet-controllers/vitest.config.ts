import { projectConfig } from '../../vitest.shared.js';

export default projectConfig('gardenlet-controllers', { isolate: false });
