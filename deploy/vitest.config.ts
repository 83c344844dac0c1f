import { projectConfig } from '../vitest.shared.js';

export default projectConfig('deploy', { timeoutMs: 60_000 });
