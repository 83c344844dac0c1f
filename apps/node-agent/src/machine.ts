// The machine program (image gardener-ts/machine): a shoot worker node as one process — provider-local's machine Pods
// run it. Root directory `$MACHINE_ROOT_DIR` (default `./rootfs`), hostname `$NODE_NAME`, user data from
// `$USER_DATA_FILE` with `<<MACHINE_NAME>>` replaced by `$MACHINE_NAME`; gardener-node-agent runs inside it (see
// @gardener-ts/nodeagent's LocalMachine), and so does its kubelet.service: `/opt/bin/kubelet` is the substrate's
// kubelet, what `gardener-local kubelet` runs, loaded at run time from `images/kubelet.js` beside the gardener-local CLI
// of the workspace this bundle was built in (`<workspace>/dist/apps/node-agent/machine.js` →
// `<workspace>/dist/tools/gardener-local/`; `$GARDENER_LOCAL_CLI` names another `cli.js`) and started and stopped in
// this process by the machine's unit manager. `/usr/sbin/sshd` (the OperatingSystemConfig's `sshd.service`) is the node SSH
// server of @gardener-ts/providerlocal/ssh on the machine Pod's address (`$GARDENER_LOCAL_POD_IP`), which the shoot's
// bastion reaches: port 22, or 2222 when the machine may not bind 22 (no root).
import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createLogger } from '@gardener-ts/logging';
import { LocalMachine } from '@gardener-ts/nodeagent';
import { machineSSHPrograms } from '@gardener-ts/providerlocal/ssh';

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
  kubelet: {
    node: process.execPath,
    nodeFlags: process.execArgv,
    cli,
    // The addresses the landscape's kubelet gave this machine's Pod for the node's own Pods.
    ...(process.env.GARDENER_LOCAL_POD_CIDR ? { podCIDR: process.env.GARDENER_LOCAL_POD_CIDR } : {}),
    // The kubelet runs in this process (systemd would start a process per unit): one Node.js runtime less per machine.
    inProcess: async (args, signal) => {
      const { runKubelet } = (await import(pathToFileURL(resolve(dirname(cli), 'images/kubelet.js')).href)) as {
        runKubelet: (args: string[], o: { signal: AbortSignal; log: typeof log; workspace: string }) => Promise<void>;
      };
      const unitLog = log.child({ node: nodeName, unit: 'kubelet.service' });
      await runKubelet(args, { signal, log: unitLog, workspace: resolve(dirname(cli), '../../..') });
    },
  },
  programs: machineSSHPrograms({
    log: log.child({ node: nodeName, unit: 'sshd.service' }),
    ...(process.env.GARDENER_LOCAL_POD_IP ? { host: process.env.GARDENER_LOCAL_POD_IP } : {}),
  }),
  ...(userDataFile ? { userData: await readFile(userDataFile, 'utf8') } : {}),
});
const stop = () => void machine.shutdown().then(() => process.exit(0));
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
await machine.boot();
log.info({ node: nodeName }, 'Machine booted');
setInterval(() => undefined, 1 << 30);
