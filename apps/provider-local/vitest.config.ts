import { projectConfig } from '../../vitest.shared.js';

export default projectConfig('provider-local', { isolate: false });
