import { fileURLToPath } from 'node:url';
import { mergeConfig } from 'vitest/config';
import { projectConfig } from '../../vitest.shared.js';

// The machine program's SSH side comes from a subpath export (@gardener-ts/providerlocal/ssh): resolved to its
// sources too, as the shared settings resolve the libs' main entries.
const providerLocalSSH = fileURLToPath(new URL('../../libs/providerlocal/src/ssh/index.ts', import.meta.url));

export default mergeConfig(projectConfig('node-agent', { isolate: false }), {
  resolve: { alias: [{ find: /^@gardener-ts\/providerlocal\/ssh$/, replacement: providerLocalSSH }] },
});
