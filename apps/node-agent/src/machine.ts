// The machine program (image gardener-ts/machine): a shoot worker node as one process — provider-local's machine Pods
// run it. Root directory `$MACHINE_ROOT_DIR` (default `./rootfs`), hostname `$NODE_NAME`, user data from
// `$USER_DATA_FILE`; gardener-node-agent runs inside it (see @gardener-ts/nodeagent's LocalMachine).
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { createLogger } from '@gardener-ts/logging';
import { LocalMachine } from '@gardener-ts/nodeagent';

const log = createLogger({ name: 'machine', level: process.env.LOG_LEVEL === 'debug' ? 'debug' : 'info' });
const nodeName = process.env.NODE_NAME ?? process.env.MACHINE_NAME ?? 'machine';
const userDataFile = process.env.USER_DATA_FILE;
const machine = new LocalMachine({
  rootDir: resolve(process.env.MACHINE_ROOT_DIR ?? 'rootfs'),
  nodeName,
  log: log.child({ node: nodeName }),
  ...(userDataFile ? { userData: await readFile(userDataFile, 'utf8') } : {}),
});
const stop = () => void machine.shutdown().then(() => process.exit(0));
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
await machine.boot();
log.info({ node: nodeName }, 'Machine booted');
setInterval(() => undefined, 1 << 30);
