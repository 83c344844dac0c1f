// gardener-local: runs the local-mode substrate. `apiserver` serves a local Kubernetes API server from a data dir;
// `cluster` runs whole local clusters (see cluster-command.ts).
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { createLogger } from '@gardener-ts/logging';
import { LocalApiServer, type StorageKind } from '@gardener-ts/local-apiserver';
import { CLUSTER_USAGE, clusterCommand, upCommand } from './cluster-command.js';
import { SHOOT_USAGE, shootCommand } from './shoot/shoot-command.js';

const USAGE = `Usage:
  gardener-local apiserver --data-dir DIR [--port N] [--storage memory|file|etcd] [--etcd-servers URL[,URL]]
                           [--token-auth-file FILE] [--anonymous-auth] [--log-level debug|info|error]
                           [--authorization-webhook-url URL [--authorization-webhook-ca-file FILE]]
                           [--audit-policy-file FILE] [--audit-log-path FILE|-] [--audit-webhook-config-file FILE]
                           [--kubelet-certificate-authority FILE]
  gardener-local up [--data-dir DIR] [--port N] [--image-map FILE] [--nodes N] [--zones A,B,...] [--cluster-only]
                           the local Gardener landscape in the foreground, as a step checklist: the runtime
                           cluster (API server on port 6443, controller manager, kubelets, service proxy) kept in
                           DIR (default .local/landscape), then Gardener's CRDs, the garden components from their
                           charts and the local project; --cluster-only stops after the cluster; --nodes and
                           --zones as for cluster up
${CLUSTER_USAGE}${SHOOT_USAGE}
The API server serves HTTPS on 127.0.0.1 with a CA it generates in DIR/pki and writes an admin kubeconfig
to DIR/kubeconfig. It runs until SIGTERM or SIGINT.
`;

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (!command || command === '--help' || command === '-h') {
    process.stdout.write(USAGE);
    return command ? 0 : 2;
  }
  if (command === 'cluster' || command === 'up' || command === 'shoot') {
    try {
      if (command === 'shoot') return await shootCommand(rest, USAGE);
      return await (command === 'up' ? upCommand(rest, USAGE) : clusterCommand(rest, USAGE));
    } catch (err) {
      process.stderr.write(`gardener-local ${command}: ${(err as Error).message}\n`);
      return 1;
    }
  }
  if (command !== 'apiserver') {
    process.stderr.write(`unknown command ${JSON.stringify(command)}\n${USAGE}`);
    return 2;
  }
  let values;
  try {
    values = parseArgs({
      args: rest,
      options: {
        'data-dir': { type: 'string' },
        port: { type: 'string' },
        storage: { type: 'string' },
        'etcd-servers': { type: 'string' },
        'token-auth-file': { type: 'string' },
        'anonymous-auth': { type: 'boolean' },
        'log-level': { type: 'string' },
        'authorization-webhook-url': { type: 'string' },
        'authorization-webhook-ca-file': { type: 'string' },
        'audit-policy-file': { type: 'string' },
        'audit-log-path': { type: 'string' },
        'audit-webhook-config-file': { type: 'string' },
        'kubelet-certificate-authority': { type: 'string' },
      },
      strict: true,
    }).values;
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n${USAGE}`);
    return 2;
  }
  const dataDir = values['data-dir'];
  if (!dataDir) {
    process.stderr.write(`--data-dir is required\n${USAGE}`);
    return 2;
  }
  const storage = (values.storage ?? 'file') as StorageKind;
  if (!['memory', 'file', 'etcd'].includes(storage)) {
    process.stderr.write(`--storage must be one of memory, file, etcd; got ${JSON.stringify(storage)}\n`);
    return 2;
  }
  const port = Number(values.port ?? 6443);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    process.stderr.write(`--port must be a port number; got ${JSON.stringify(values.port)}\n`);
    return 2;
  }
  const level = (values['log-level'] ?? 'info') as 'debug' | 'info' | 'error';
  const log = createLogger({ name: 'gardener-local-apiserver', level });
  let server: LocalApiServer;
  try {
    server = await LocalApiServer.start({
      dataDir: resolve(dataDir),
      port,
      storage,
      etcdServers: values['etcd-servers']?.split(','),
      tokenFile: values['token-auth-file'],
      anonymous: values['anonymous-auth'] ?? false,
      kubeletCertificateAuthority: values['kubelet-certificate-authority']
        ? await readFile(values['kubelet-certificate-authority'], 'utf8')
        : undefined,
      authorizationWebhook: values['authorization-webhook-url']
        ? {
            url: values['authorization-webhook-url'],
            caPem: values['authorization-webhook-ca-file']
              ? await readFile(values['authorization-webhook-ca-file'], 'utf8')
              : undefined,
          }
        : undefined,
      audit: {
        policyFile: values['audit-policy-file'],
        logPath: values['audit-log-path'],
        webhookConfigFile: values['audit-webhook-config-file'],
      },
      logger: log,
    });
  } catch (err) {
    // What went wrong, not where in our code: the stack is for --log-level debug.
    log.debug({ err }, 'The API server did not start');
    process.stderr.write(`gardener-local apiserver: ${(err as Error).message ?? String(err)}\n`);
    return 1;
  }
  log.info({ url: server.url, kubeconfig: server.kubeconfigPath, storage }, 'Serving');
  process.stdout.write(`Local API server ready at ${server.url}\n  export KUBECONFIG=${server.kubeconfigPath}\n`);
  await new Promise<void>((done) => {
    const stop = () => void server.stop().then(done);
    process.once('SIGTERM', stop);
    process.once('SIGINT', stop);
  });
  log.info('Stopped');
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err) => {
    process.stderr.write(`gardener-local: ${err instanceof Error ? err.stack : String(err)}\n`);
    process.exit(1);
  },
);
