// The bastion program (image gardener-ts/bastion), which provider-local's Bastion actuator runs as the bastion Pod:
// the jump host of ./bastion-server.ts on `--port` (22) of the Pod's address, with the Bastion's user data and ingress
// ranges from the files of its Secret (read again for every connection), a host key from `--host-key-file` or made at
// start, and the shoot's machines (the Pods `app=machine` of `$POD_NAMESPACE`) looked up through the seed's API with
// the Pod's service account.
import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { KubeConfig } from '@kubernetes/client-node';
import { createLogger, type Logger } from '@gardener-ts/logging';
import { authorizedKeysFromUserData } from './authorized-keys.js';
import { BastionConfigDir, IngressKey, UserDataKey } from './config.js';
import { generateHostKey } from './auth.js';
import { BastionServer, type BastionAccess } from './bastion-server.js';
import type { BastionIngressPolicy } from './ingress.js';
import { SSHPort, machinesFromAPI, resolveTarget } from './targets.js';

/** The bastion program's settings (its flags). */
export interface BastionProgramOptions {
  userDataFile: string;
  ingressFile: string;
  hostKeyFile?: string;
  port: number;
  host?: string;
  targetPorts: number[];
  namespace: string;
  kubeconfig?: string;
}

/** Reads the program's flags; the namespace from `--namespace` or `$POD_NAMESPACE`. */
export function parseBastionArgs(argv: string[], env: NodeJS.ProcessEnv = process.env): BastionProgramOptions {
  const { values } = parseArgs({
    args: argv,
    options: {
      'user-data-file': { type: 'string', default: `${BastionConfigDir}/${UserDataKey}` },
      'ingress-file': { type: 'string', default: `${BastionConfigDir}/${IngressKey}` },
      'host-key-file': { type: 'string' },
      port: { type: 'string', default: String(SSHPort) },
      host: { type: 'string' },
      'target-port': { type: 'string', multiple: true },
      namespace: { type: 'string' },
      kubeconfig: { type: 'string' },
    },
    strict: true,
  });
  const port = (text: string, flag: string) => {
    const n = Number(text);
    if (!Number.isInteger(n) || n < 0 || n > 65535) throw new Error(`--${flag}: ${JSON.stringify(text)} is not a port`);
    return n;
  };
  const namespace = values.namespace ?? env.POD_NAMESPACE;
  if (!namespace) throw new Error('the bastion needs its namespace: --namespace or $POD_NAMESPACE');
  return {
    userDataFile: values['user-data-file'],
    ingressFile: values['ingress-file'],
    ...(values['host-key-file'] ? { hostKeyFile: values['host-key-file'] } : {}),
    port: port(values.port, 'port'),
    ...(values.host ? { host: values.host } : {}),
    targetPorts: (values['target-port'] ?? [String(SSHPort)]).map((p) => port(p, 'target-port')),
    namespace,
    ...(values.kubeconfig ? { kubeconfig: values.kubeconfig } : {}),
  };
}

/** Parses the ingress file (the Bastion's `spec.ingress` as JSON). */
export function parseIngress(text: string): BastionIngressPolicy[] {
  const doc: unknown = JSON.parse(text);
  if (!Array.isArray(doc)) throw new Error('the ingress file must hold a JSON list of {ipBlock: {cidr}}');
  return doc.flatMap((entry: unknown) => {
    const block = (entry as { ipBlock?: { cidr?: unknown; except?: unknown } } | null)?.ipBlock;
    if (typeof block?.cidr !== 'string') return [];
    const except = Array.isArray(block.except) ? block.except.filter((e): e is string => typeof e === 'string') : [];
    return [{ ipBlock: { cidr: block.cidr, ...(except.length ? { except } : {}) } }];
  });
}

/** Reads the access files: the keys of the user data and the ingress ranges. */
export async function readAccess(options: Pick<BastionProgramOptions, 'userDataFile' | 'ingressFile'>) {
  const [userData, ingress] = await Promise.all([
    readFile(options.userDataFile, 'utf8'),
    readFile(options.ingressFile, 'utf8'),
  ]);
  return { keys: authorizedKeysFromUserData(userData), ingress: parseIngress(ingress) } satisfies BastionAccess;
}

/** Starts the bastion as `options` say (logging as `bastion` unless given a logger); resolves once it listens. */
export async function runBastion(
  options: BastionProgramOptions,
  log: Logger = createLogger({ name: 'bastion', level: process.env.LOG_LEVEL === 'debug' ? 'debug' : 'info' }),
): Promise<BastionServer> {
  const kubeConfig = new KubeConfig();
  if (options.kubeconfig) kubeConfig.loadFromFile(options.kubeconfig);
  else kubeConfig.loadFromCluster();
  const hostKey = options.hostKeyFile ? await readFile(options.hostKeyFile) : generateHostKey();
  const initial = await readAccess(options);
  log.info({ keys: initial.keys.length, ingress: initial.ingress.map((i) => i.ipBlock.cidr) }, 'Bastion access');
  const server = await BastionServer.listen(
    {
      hostKeys: [hostKey],
      access: () => readAccess(options),
      resolveTarget: async (host, port) =>
        resolveTarget(await machinesFromAPI(kubeConfig, options.namespace), host, port, options.targetPorts),
      log,
    },
    options.port,
    options.host,
  );
  log.info(server.address(), 'Bastion listening');
  return server;
}
