import { projectConfig } from '../../vitest.shared.js';

export default projectConfig('gardener-local', { timeoutMs: 60_000 });
