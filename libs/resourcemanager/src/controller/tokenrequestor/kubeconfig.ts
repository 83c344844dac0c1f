// The token in a kubeconfig: the user of the current context holds it (YAML or JSON in, YAML out).
import YAML from 'yaml';

interface Kubeconfig {
  'current-context'?: string;
  contexts?: Array<{ name?: string; context?: { user?: string; cluster?: string } }>;
  users?: Array<{ name?: string; user?: Record<string, unknown> }>;
  clusters?: Array<{ name?: string; cluster?: Record<string, unknown> }>;
  [key: string]: unknown;
}

function parse(text: string): Kubeconfig {
  let doc: unknown;
  try {
    doc = YAML.parse(text);
  } catch (err) {
    throw new Error(`cannot decode kubeconfig: ${(err as Error).message}`);
  }
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc))
    throw new Error('cannot decode kubeconfig: not an object');
  return doc as Kubeconfig;
}

/** The `user` of the current context's auth info; throws like Gardener when the context or the user is missing. */
function currentUser(config: Kubeconfig): Record<string, unknown> {
  const ctx = (config.contexts ?? []).find((c) => c.name === config['current-context']);
  if (!ctx) throw new Error('did not find context defined in current context');
  const userName = ctx.context?.user ?? '';
  const entry = (config.users ?? []).find((u) => u.name === userName);
  if (!entry) throw new Error(`did not find authInfo of current context named ${userName}`);
  entry.user ??= {};
  return entry.user;
}

/** The `cluster` of the current context; throws like Gardener when the context or the cluster is missing. */
function currentCluster(config: Kubeconfig): Record<string, unknown> {
  const ctx = (config.contexts ?? []).find((c) => c.name === config['current-context']);
  if (!ctx) throw new Error('did not find context defined in current context');
  const clusterName = ctx.context?.cluster ?? '';
  const entry = (config.clusters ?? []).find((c) => c.name === clusterName);
  if (!entry) throw new Error(`did not find cluster of current context named ${clusterName}`);
  entry.cluster ??= {};
  return entry.cluster;
}

/**
 * The kubeconfig with `token` as the current context's user token (replacing the previous one) and, if `caData` (PEM)
 * is not empty, that CA as the current context's cluster `certificate-authority-data`.
 */
export function setKubeconfigToken(kubeconfig: string, token: string, caData = ''): string {
  const config = parse(kubeconfig);
  currentUser(config).token = token;
  if (caData !== '')
    currentCluster(config)['certificate-authority-data'] = Buffer.from(caData, 'utf8').toString('base64');
  return YAML.stringify(config);
}

/** The current context's cluster CA (`certificate-authority-data`, decoded; '' if none). */
export function kubeconfigCA(kubeconfig: string): string {
  const data = currentCluster(parse(kubeconfig))['certificate-authority-data'];
  return typeof data === 'string' ? Buffer.from(data, 'base64').toString('utf8') : '';
}

/** The current context's user token ('' if none). */
export function kubeconfigToken(kubeconfig: string): string {
  const token = currentUser(parse(kubeconfig)).token;
  return typeof token === 'string' ? token : '';
}
