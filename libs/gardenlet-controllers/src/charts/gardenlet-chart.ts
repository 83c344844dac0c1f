// A gardenlet deployed from the chart deploy/charts/gardenlet, as both deployers of gardener-ts do it: the local
// landscape (an operator's `helm template` with a bootstrap token, Gardener's local setup) and the gardenlet's
// ManagedSeed controller (a clone of itself into a shoot, Gardener's gardenletdeployer). What they share: the
// bootstrap token Secret in the garden's kube-system (Gardener's fields: description, expiration, both usages), the
// bootstrap kubeconfig authenticating with it, and the chart values (the component configuration under `config`, the
// bootstrap kubeconfig under `bootstrapKubeconfig.kubeconfig`). Pure, except `GardenletChartRenderer`, which renders
// the chart with the real helm.
import { createHash, randomInt } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';
import type { KubernetesObject } from '@gardener-ts/controller-runtime';
import type { HelmRenderer } from './helm.js';

/** The chart directory, its release and namespace (Gardener's `garden` namespace and `gardenlet` Deployment). */
export const GardenletChart = { chart: 'gardenlet', release: 'gardenlet', namespace: 'garden' } as const;
/** The Deployment the chart renders (release `gardenlet` of chart `gardenlet`). */
export const GardenletDeploymentName = 'gardenlet';
/** Gardener's default names of the kubeconfig Secrets in the gardenlet's namespace. */
export const GardenletKubeconfigSecretName = 'gardenlet-kubeconfig';
export const GardenletBootstrapKubeconfigSecretName = 'gardenlet-kubeconfig-bootstrap';

/** Where bootstrap token Secrets live and their type (k8s.io/cluster-bootstrap). */
export const BootstrapTokenNamespace = 'kube-system';
export const BootstrapTokenSecretType = 'bootstrap.kubernetes.io/token';
/** The characters and lengths of a bootstrap token's id and secret. */
const TokenCharset = '0123456789abcdefghijklmnopqrstuvwxyz';
const TokenIDLength = 6;
const TokenSecretLength = 16;
const TokenSecretPattern = /^[a-z0-9]{16}$/;

/** A bootstrap token: `<id>.<secret>` on the wire. */
export interface BootstrapToken {
  id: string;
  secret: string;
}

/** The Secret name of a token id (`bootstrap-token-<id>`). */
export const bootstrapTokenSecretName = (id: string): string => `bootstrap-token-${id}`;

const randomToken = (length: number) =>
  Array.from({ length }, () => TokenCharset[randomInt(TokenCharset.length)]).join('');

/** A new random token secret (16 of `[0-9a-z]`), and a random id unless one is given. */
export function newBootstrapToken(id: string = randomToken(TokenIDLength)): BootstrapToken {
  return { id, secret: randomToken(TokenSecretLength) };
}

/**
 * The token id of an object (Gardener's `bootstraptoken.TokenID`): the first six hex digits of the SHA-256 of
 * `<namespace>--<name>` (just the name for a cluster-scoped object), so one object always gets the same Secret.
 */
export function bootstrapTokenID(meta: { namespace?: string; name: string }): string {
  const value = meta.namespace ? `${meta.namespace}--${meta.name}` : meta.name;
  return createHash('sha256').update(value).digest('hex').slice(0, TokenIDLength);
}

/** The kinds a gardenlet's bootstrap token is issued for (Gardener's `KindSeed`, `KindManagedSeed`). */
export type BootstrapTokenKind = 'seed' | 'managed seed';

/**
 * The description of a gardenlet's bootstrap token (Gardener's `Description`): the controller-manager reads the kind
 * and the object back from it, e.g. `A bootstrap token for the Gardenlet for managed seed garden/infra.`.
 */
export function bootstrapTokenDescription(
  kind: BootstrapTokenKind,
  namespace: string | undefined,
  name: string,
): string {
  return `A bootstrap token for the Gardenlet for ${kind} ${namespace ? `${namespace}/${name}` : name}.`;
}

/** RFC 3339 without fractions, as the token's `expiration` is written. */
const rfc3339 = (d: Date) => d.toISOString().replace(/\.\d+Z$/, 'Z');
const b64 = (s: string) => Buffer.from(s).toString('base64');
const unb64 = (s: string | undefined) => (s === undefined ? undefined : Buffer.from(s, 'base64').toString('utf8'));

/** The bootstrap token Secret in the garden's kube-system: authentication and signing usages, valid until `expiration`. */
export function bootstrapTokenSecret(
  token: BootstrapToken,
  options: { description: string; expiration: Date },
): KubernetesObject & { type: string; data: Record<string, string> } {
  const data: Record<string, string> = {
    description: options.description,
    'token-id': token.id,
    'token-secret': token.secret,
    expiration: rfc3339(options.expiration),
    'usage-bootstrap-authentication': 'true',
    'usage-bootstrap-signing': 'true',
  };
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: bootstrapTokenSecretName(token.id), namespace: BootstrapTokenNamespace },
    type: BootstrapTokenSecretType,
    data: Object.fromEntries(Object.entries(data).map(([k, v]) => [k, b64(v)])),
  };
}

/**
 * The token of an existing token Secret (its base64 `data`) that is still valid at `now`, or undefined: missing,
 * without a well-formed secret, or expired (Gardener then issues it again).
 */
export function validBootstrapToken(data: Record<string, string> | undefined, now: Date): BootstrapToken | undefined {
  const id = unb64(data?.['token-id']);
  const secret = unb64(data?.['token-secret']);
  const expiration = Date.parse(unb64(data?.expiration) ?? '');
  if (!id || !secret || !TokenSecretPattern.test(secret)) return undefined;
  if (Number.isNaN(expiration) || expiration < now.getTime()) return undefined;
  return { id, secret };
}

/** The fields of a kubeconfig's cluster entry (`server`, `certificate-authority-data`, ...). */
export type KubeconfigCluster = Record<string, unknown> & { server: string };

/** A garden as a cluster entry: its server and CA (base64 PEM), or no TLS verification. */
export function kubeconfigCluster(garden: {
  server: string;
  caData?: string;
  insecureSkipTLSVerify?: boolean;
}): KubeconfigCluster {
  return {
    server: garden.server,
    ...(garden.caData ? { 'certificate-authority-data': garden.caData } : {}),
    ...(garden.insecureSkipTLSVerify ? { 'insecure-skip-tls-verify': true } : {}),
  };
}

/** The bootstrap kubeconfig (YAML) for the garden `cluster`, authenticating with `token` (`<id>.<secret>` or a JWT). */
export function bootstrapKubeconfig(cluster: KubeconfigCluster, token: string): string {
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    'current-context': 'gardenlet-bootstrap',
    clusters: [{ name: 'garden', cluster }],
    contexts: [{ name: 'gardenlet-bootstrap', context: { cluster: 'garden', user: 'gardenlet-bootstrap' } }],
    users: [{ name: 'gardenlet-bootstrap', user: { token } }],
  });
}

/** Token `<id>.<secret>` of a bootstrap token. */
export const bootstrapTokenString = (token: BootstrapToken): string => `${token.id}.${token.secret}`;

/** The chart values of a gardenlet: its configuration, the bootstrap kubeconfig and Deployment settings. */
export interface GardenletChartInput {
  /** The GardenletConfiguration (or the part of it to set over the chart's defaults). */
  config: Record<string, unknown>;
  /** The bootstrap kubeconfig; the chart then creates the Secret `config.gardenClientConnection.bootstrapKubeconfig`. */
  bootstrapKubeconfig?: string;
  /** More top-level values (image, replicas, resources, env, ...). */
  values?: Record<string, unknown>;
}

/** The values for deploy/charts/gardenlet. */
export function gardenletChartValues(input: GardenletChartInput): Record<string, unknown> {
  return {
    ...input.values,
    ...(input.bootstrapKubeconfig ? { bootstrapKubeconfig: { kubeconfig: input.bootstrapKubeconfig } } : {}),
    config: input.config,
  };
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * `values` with every key the chart's `defaults` have below `path` but `values` do not set to null (pure): helm merges
 * user values into the defaults and drops keys set to null, so the object at `path` replaces the chart's instead of
 * being merged with it (a ManagedSeed's `seedConfig` must not inherit the chart's local seed).
 */
export function replacingDefaults(
  defaults: Record<string, unknown>,
  values: Record<string, unknown>,
  path: readonly string[],
): Record<string, unknown> {
  const at = (o: unknown, p: readonly string[]): unknown =>
    p.reduce<unknown>((v, k) => (isObject(v) ? v[k] : undefined), o);
  const wanted = at(values, path);
  const fallback = at(defaults, path);
  if (!isObject(wanted) || !isObject(fallback)) return values;
  const nullMissing = (d: Record<string, unknown>, v: Record<string, unknown>): Record<string, unknown> => {
    const out: Record<string, unknown> = { ...v };
    for (const [k, dv] of Object.entries(d)) {
      if (!(k in v)) out[k] = null;
      else if (isObject(dv) && isObject(v[k])) out[k] = nullMissing(dv, v[k] as Record<string, unknown>);
    }
    return out;
  };
  const replaced = nullMissing(fallback, wanted);
  const set = (o: Record<string, unknown>, p: readonly string[]): Record<string, unknown> =>
    p.length === 1
      ? { ...o, [p[0]!]: replaced }
      : { ...o, [p[0]!]: set(o[p[0]!] as Record<string, unknown>, p.slice(1)) };
  return set(values, path);
}

/** Renders deploy/charts/gardenlet for a gardenlet deployed into another cluster (release `gardenlet` in `garden`). */
export interface GardenletChartRenderer {
  /** The rendered objects; the objects at `replace` paths of `values` replace the chart's defaults there. */
  render(values: Record<string, unknown>, replace?: readonly (readonly string[])[]): Promise<KubernetesObject[]>;
}

/** A `GardenletChartRenderer` over the helm renderer and the charts directory (its values.yaml read once). */
export function gardenletChartRenderer(helm: Pick<HelmRenderer, 'render'>, chartsDir: string): GardenletChartRenderer {
  let defaults: Promise<Record<string, unknown>> | undefined;
  return {
    async render(values, replace = []) {
      defaults ??= readFile(join(chartsDir, GardenletChart.chart, 'values.yaml'), 'utf8').then(
        (text) => (parse(text) ?? {}) as Record<string, unknown>,
      );
      const d = await defaults;
      const final = replace.reduce((v, path) => replacingDefaults(d, v, path), values);
      return helm.render(GardenletChart.chart, GardenletChart.release, GardenletChart.namespace, final);
    },
  };
}
