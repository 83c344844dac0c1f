// The audit webhook's kubeconfig (kube's --audit-webhook-config-file): the server to POST to and the credentials, from
// the current context (else the first cluster and user). File paths are relative to the kubeconfig's directory.
import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { parse as parseYaml } from 'yaml';

export interface WebhookTarget {
  url: URL;
  ca?: string;
  insecureSkipTLSVerify?: boolean;
  cert?: string;
  key?: string;
  token?: string;
}

type Named<T> = { name?: string } & T;
type Entry = Record<string, unknown>;

export async function loadWebhookConfig(path: string): Promise<WebhookTarget> {
  const fail = (why: string) => new Error(`invalid audit webhook config file ${path}: ${why}`);
  let config: {
    clusters?: Named<{ cluster?: Entry }>[];
    users?: Named<{ user?: Entry }>[];
    contexts?: Named<{ context?: { cluster?: string; user?: string } }>[];
    'current-context'?: string;
  };
  try {
    config = parseYaml(await readFile(path, 'utf8')) ?? {};
  } catch (err) {
    throw fail((err as Error).message);
  }
  const base = dirname(path);
  const context = config.contexts?.find((c) => c.name === config['current-context'])?.context;
  const cluster = (context ? config.clusters?.find((c) => c.name === context.cluster) : config.clusters?.[0])?.cluster;
  const user = (context ? config.users?.find((u) => u.name === context.user) : config.users?.[0])?.user ?? {};
  if (!cluster || typeof cluster.server !== 'string') throw fail('no cluster with a server');
  let url: URL;
  try {
    url = new URL(cluster.server);
  } catch {
    throw fail(`server ${JSON.stringify(cluster.server)} is not a URL`);
  }
  const data = async (entry: Entry, inline: string, file: string) => {
    if (typeof entry[inline] === 'string') return Buffer.from(entry[inline] as string, 'base64').toString('utf8');
    if (typeof entry[file] === 'string') return readFile(resolve(base, entry[file] as string), 'utf8');
    return undefined;
  };
  const tokenFile =
    typeof user.tokenFile === 'string' ? (await readFile(resolve(base, user.tokenFile), 'utf8')).trim() : undefined;
  return {
    url,
    ca: await data(cluster, 'certificate-authority-data', 'certificate-authority'),
    insecureSkipTLSVerify: cluster['insecure-skip-tls-verify'] === true,
    cert: await data(user, 'client-certificate-data', 'client-certificate'),
    key: await data(user, 'client-key-data', 'client-key'),
    token: typeof user.token === 'string' ? user.token : tokenFile,
  };
}
