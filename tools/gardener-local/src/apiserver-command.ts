// `gardener-local apiserver`: one local API server from a data dir, in the foreground. Its flags are kube-apiserver's
// where they mean the same (a shoot's kube-apiserver Pod runs it with Gardener's flags translated by the kubelet's
// image map): serving certificate, client CA, service account keys and issuer, etcd with TLS, bind and advertise
// address, authorization modes, encryption at rest. A file flag whose file cannot be read stops the start with the flag and path named.
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { createLogger } from '@gardener-ts/logging';
import { LocalApiServer, type LocalApiServerOptions, type StorageKind } from '@gardener-ts/local-apiserver';

const OPTIONS = {
  'data-dir': { type: 'string' },
  port: { type: 'string' },
  'bind-address': { type: 'string' },
  'advertise-address': { type: 'string' },
  storage: { type: 'string' },
  'etcd-servers': { type: 'string' },
  'etcd-cafile': { type: 'string' },
  'etcd-certfile': { type: 'string' },
  'etcd-keyfile': { type: 'string' },
  'encryption-provider-config': { type: 'string' },
  'tls-cert-file': { type: 'string' },
  'tls-private-key-file': { type: 'string' },
  'client-ca-file': { type: 'string' },
  'service-account-signing-key-file': { type: 'string' },
  'service-account-key-file': { type: 'string', multiple: true },
  'service-account-issuer': { type: 'string', multiple: true },
  'api-audiences': { type: 'string' },
  'authorization-mode': { type: 'string' },
  'token-auth-file': { type: 'string' },
  'anonymous-auth': { type: 'boolean' },
  'log-level': { type: 'string' },
  'authorization-webhook-url': { type: 'string' },
  'authorization-webhook-ca-file': { type: 'string' },
  'audit-policy-file': { type: 'string' },
  'audit-log-path': { type: 'string' },
  'audit-webhook-config-file': { type: 'string' },
  'kubelet-certificate-authority': { type: 'string' },
  'kubelet-client-certificate': { type: 'string' },
  'kubelet-client-key': { type: 'string' },
} as const;

type Values = ReturnType<typeof parseArgs<{ options: typeof OPTIONS; strict: true }>>['values'];

/** The flags of `gardener-local apiserver`; throws for an unknown flag or a missing value. */
export function parseApiServerFlags(args: string[]): Values {
  return parseArgs({ args, options: OPTIONS, strict: true }).values;
}

/** A usage error: printed with the usage text, exit status 2. */
class UsageError extends Error {}

/** The authorization modes the local API server has: RBAC (always on) and Node. */
export function nodeAuthorizationOf(modes: string | undefined): boolean {
  if (modes === undefined) return true;
  const list = modes.split(',').map((m) => m.trim());
  const unknown = list.filter((m) => m !== 'Node' && m !== 'RBAC');
  if (unknown.length)
    throw new UsageError(
      `--authorization-mode: ${unknown.join(', ')} not supported (the local API server has Node, RBAC)`,
    );
  if (!list.includes('RBAC')) throw new UsageError('--authorization-mode must include RBAC (always on here)');
  return list.includes('Node');
}

// Reads the file a flag names; the error names the flag and the path.
async function readFlagFile(flag: string, path: string | undefined): Promise<string | undefined> {
  if (path === undefined) return undefined;
  try {
    return await readFile(path, 'utf8');
  } catch (err) {
    throw new Error(`--${flag} ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`, {
      cause: err,
    });
  }
}

// Both flags of a pair or neither.
function pair(values: Values, a: keyof Values, b: keyof Values): void {
  if ((values[a] === undefined) !== (values[b] === undefined)) throw new UsageError(`--${a} and --${b} go together`);
}

/** The server options of the parsed flags; reads every file the flags name. */
export async function apiServerOptions(values: Values): Promise<Omit<LocalApiServerOptions, 'logger'>> {
  const dataDir = values['data-dir'];
  if (!dataDir) throw new UsageError('--data-dir is required');
  const storage = (values.storage ?? 'file') as StorageKind;
  if (!['memory', 'file', 'etcd'].includes(storage))
    throw new UsageError(`--storage must be one of memory, file, etcd; got ${JSON.stringify(storage)}`);
  const port = Number(values.port ?? 6443);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new UsageError(`--port must be a port number; got ${JSON.stringify(values.port)}`);
  pair(values, 'tls-cert-file', 'tls-private-key-file');
  pair(values, 'etcd-certfile', 'etcd-keyfile');
  const nodeAuthorization = nodeAuthorizationOf(values['authorization-mode']);
  const file = (flag: keyof Values) => readFlagFile(flag, values[flag] as string | undefined);
  const [
    tlsCert,
    tlsKey,
    clientCA,
    etcdCA,
    etcdCert,
    etcdKey,
    encryption,
    signingKey,
    kubeletCA,
    webhookCA,
    kubeletClientCert,
    kubeletClientKey,
  ] = await Promise.all([
    file('tls-cert-file'),
    file('tls-private-key-file'),
    file('client-ca-file'),
    file('etcd-cafile'),
    file('etcd-certfile'),
    file('etcd-keyfile'),
    file('encryption-provider-config'),
    file('service-account-signing-key-file'),
    file('kubelet-certificate-authority'),
    file('authorization-webhook-ca-file'),
    file('kubelet-client-certificate'),
    file('kubelet-client-key'),
  ]);
  const verificationKeys = await Promise.all(
    (values['service-account-key-file'] ?? []).map((path) => readFlagFile('service-account-key-file', path)),
  );
  const etcdTLS = etcdCA || etcdCert ? { caPem: etcdCA, certPem: etcdCert, keyPem: etcdKey } : undefined;
  return {
    dataDir: resolve(dataDir),
    port,
    host: values['bind-address'],
    advertiseAddress: values['advertise-address'],
    storage,
    etcdServers: values['etcd-servers']?.split(','),
    etcdTLS,
    encryptionConfig: encryption,
    servingCertificate: tlsCert ? { certPem: tlsCert, keyPem: tlsKey! } : undefined,
    clientCA,
    serviceAccount:
      signingKey || verificationKeys.length || values['service-account-issuer'] || values['api-audiences']
        ? {
            signingKeyPem: signingKey,
            verificationKeysPem: verificationKeys.length ? verificationKeys.join('\n') : undefined,
            // kube's repeated flag: the first issues tokens, all are accepted.
            issuer: values['service-account-issuer']?.[0],
            acceptedIssuers: values['service-account-issuer']?.slice(1),
            apiAudiences: values['api-audiences']?.split(',').filter(Boolean),
          }
        : undefined,
    nodeAuthorization,
    tokenFile: values['token-auth-file'],
    anonymous: values['anonymous-auth'] ?? false,
    kubeletCertificateAuthority: kubeletCA,
    kubeletClientCertificate:
      kubeletClientCert && kubeletClientKey ? { certPem: kubeletClientCert, keyPem: kubeletClientKey } : undefined,
    authorizationWebhook: values['authorization-webhook-url']
      ? { url: values['authorization-webhook-url'], caPem: webhookCA }
      : undefined,
    audit: {
      policyFile: values['audit-policy-file'],
      logPath: values['audit-log-path'],
      webhookConfigFile: values['audit-webhook-config-file'],
    },
  };
}

/** `gardener-local apiserver ARGS`: serves until SIGTERM or SIGINT; resolves to the exit status. */
export async function apiserverCommand(args: string[], usage: string): Promise<number> {
  let values: Values;
  try {
    values = parseApiServerFlags(args);
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n${usage}`);
    return 2;
  }
  const level = (values['log-level'] ?? 'info') as 'debug' | 'info' | 'error';
  const log = createLogger({ name: 'gardener-local-apiserver', level });
  let server: LocalApiServer;
  try {
    server = await LocalApiServer.start({ ...(await apiServerOptions(values)), logger: log });
  } catch (err) {
    if (err instanceof UsageError) {
      process.stderr.write(`${err.message}\n${usage}`);
      return 2;
    }
    // What went wrong, not where in our code: the stack is for --log-level debug.
    log.debug({ err }, 'The API server did not start');
    process.stderr.write(`gardener-local apiserver: ${(err as Error).message ?? String(err)}\n`);
    return 1;
  }
  log.info({ url: server.url, kubeconfig: server.kubeconfigPath, storage: server.storage.kind }, 'Serving');
  process.stdout.write(
    `Local API server ready at ${server.url}\n` +
      (server.kubeconfigPath ? `  export KUBECONFIG=${server.kubeconfigPath}\n` : ''),
  );
  await new Promise<void>((done) => {
    const stop = () => void server.stop().then(done);
    process.once('SIGTERM', stop);
    process.once('SIGINT', stop);
  });
  log.info('Stopped');
  return 0;
}
