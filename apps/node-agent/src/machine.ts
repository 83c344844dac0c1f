// The machine program (image gardener-ts/machine): a shoot worker node as one process — provider-local's machine Pods
// run it. Root directory `$MACHINE_ROOT_DIR` (default `./rootfs`), hostname `$NODE_NAME`, user data from
// `$USER_DATA_FILE` with `<<MACHINE_NAME>>` replaced by `$MACHINE_NAME`; gardener-node-agent runs inside it (see @gardener-ts/nodeagent's LocalMachine), and its
// `/opt/bin/kubelet` is the substrate's kubelet: `gardener-local kubelet` from the workspace this bundle was built in
// (`<workspace>/dist/apps/node-agent/machine.js` → `<workspace>/dist/tools/gardener-local/cli.js`; `$GARDENER_LOCAL_CLI`
// overrides it).
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createLogger } from '@gardener-ts/logging';
import { LocalMachine } from '@gardener-ts/nodeagent';

const log = createLogger({ name: 'machine', level: process.env.LOG_LEVEL === 'debug' ? 'debug' : 'info' });
const nodeName = process.env.NODE_NAME ?? process.env.MACHINE_NAME ?? 'machine';
const userDataFile = process.env.USER_DATA_FILE;
const cli =
  process.env.GARDENER_LOCAL_CLI ?? fileURLToPath(new URL('../../tools/gardener-local/cli.js', import.meta.url));
const machine = new LocalMachine({
  rootDir: resolve(process.env.MACHINE_ROOT_DIR ?? 'rootfs'),
  nodeName,
  ...(process.env.MACHINE_NAME ? { machineName: process.env.MACHINE_NAME } : {}),
  log: log.child({ node: nodeName }),
  kubelet: { node: process.execPath, cli },
  ...(userDataFile ? { userData: await readFile(userDataFile, 'utf8') } : {}),
});
const stop = () => void machine.shutdown().then(() => process.exit(0));
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
await machine.boot();
log.info({ node: nodeName }, 'Machine booted');
setInterval(() => undefined, 1 << 30);
