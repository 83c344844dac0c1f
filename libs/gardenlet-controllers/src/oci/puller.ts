// Pulls Helm charts stored as OCI artifacts (Gardener pkg/utils/oci HelmRegistry), for ControllerDeployments'
// `helm.ociRepository`. The reference (`ref`, or `repository` with `tag`/`digest`) is parsed strictly; the registry is
// spoken to with the OCI distribution API over HTTPS (plain HTTP only for loopback hosts and Gardener's local registry
// `registry.local.gardener.cloud:<port>`): `GET /v2/` and, on a 401, the challenge it names — `Bearer realm=…,
// service=…` answered by a pull-scoped token from the realm (basic auth, a refresh token or a registry token from the
// pull secret), or `Basic` with the pull secret's user and password. Then the manifest
// (`application/vnd.oci.image.manifest.v1+json`, Docker's v2 manifest accepted too), its layer
// `application/vnd.cncf.helm.chart.content.v1.tar+gzip`, and the blob, whose size and sha256 must match the layer's
// descriptor (a manifest pulled by digest must match that digest). Archives are cached in memory by
// `registry/repository@<manifest digest>`; a reference by digest is served from the cache without asking the registry.
// The pull secret (`.dockerconfigjson`, type `kubernetes.io/dockerconfigjson`) and the CA bundle Secret (`bundle.crt`)
// are read by name in the `garden` namespace of the garden, through the reader the caller passes.
//
// Hand-written rather than an npm dependency: the protocol subset is a handful of requests, and the registry clients
// on npm are unmaintained (docker-registry-client: Docker v2 only, restify-based), browser- or host-specific
// (oras-pull: ghcr.io only) or internal to another tool (@sigstore/oci, made to push attestations).
import { createHash } from 'node:crypto';
import { ChartCache } from './cache.js';
import { credentialsFor, type RegistryCredentials } from './docker-config.js';
import { httpFetch, type HttpResponse } from './http.js';
import {
  formatReference,
  ociRepositoryURL,
  parseReference,
  registryBaseURL,
  type OciReference,
  type OciRepositorySpec,
} from './reference.js';

/** The media type of a Helm chart layer. */
export const HELM_CHART_LAYER_MEDIA_TYPE = 'application/vnd.cncf.helm.chart.content.v1.tar+gzip';
/** The OCI image manifest media type. */
export const OCI_MANIFEST_MEDIA_TYPE = 'application/vnd.oci.image.manifest.v1+json';
const DOCKER_MANIFEST_MEDIA_TYPE = 'application/vnd.docker.distribution.manifest.v2+json';
const INDEX_MEDIA_TYPES = [
  'application/vnd.oci.image.index.v1+json',
  'application/vnd.docker.distribution.manifest.list.v2+json',
];
/** The pull secret's data key. */
export const DOCKER_CONFIG_JSON_KEY = '.dockerconfigjson';
/** The CA bundle Secret's data key. */
export const CA_BUNDLE_KEY = 'bundle.crt';

/** A Secret as the puller reads it (data base64-encoded, as the API serves it). */
export interface SecretData {
  data?: Record<string, string>;
}

export interface OciChartPullerOptions {
  /** Reads a Secret of the `garden` namespace by name; undefined when it does not exist. */
  readSecret?: (name: string) => Promise<SecretData | undefined>;
  cache?: ChartCache;
  /** Largest chart archive accepted (default 64 MiB). */
  maxChartBytes?: number;
  /** Per-request timeout (default 30 s). */
  timeoutMs?: number;
}

/** A parsed `WWW-Authenticate` challenge. */
export interface AuthChallenge {
  scheme: string;
  params: Record<string, string>;
}

/** Parses the first challenge of a `WWW-Authenticate` header (`Bearer realm="…",service="…",scope="…"`). */
export function parseChallenge(header: string): AuthChallenge | undefined {
  const match = /^\s*([A-Za-z][A-Za-z0-9_-]*)\s*(.*)$/s.exec(header);
  if (!match) return undefined;
  const params: Record<string, string> = {};
  const param = /([A-Za-z][A-Za-z0-9_-]*)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^,\s]*))\s*,?\s*/gy;
  const rest = match[2]!;
  let m: RegExpExecArray | null;
  while ((m = param.exec(rest)) !== null) {
    params[m[1]!.toLowerCase()] = m[2] !== undefined ? m[2].replace(/\\(.)/g, '$1') : m[3]!;
    if (param.lastIndex >= rest.length) break;
  }
  return { scheme: match[1]!.toLowerCase(), params };
}

const sha256 = (data: Buffer) => `sha256:${createHash('sha256').update(data).digest('hex')}`;
const basic = (c: RegistryCredentials) =>
  `Basic ${Buffer.from(`${c.username ?? ''}:${c.password ?? ''}`).toString('base64')}`;

interface Descriptor {
  mediaType?: string;
  digest?: string;
  size?: number;
}

/** Pulls Helm chart archives from OCI registries. */
export class OciChartPuller {
  private readonly cache: ChartCache;
  private readonly maxChartBytes: number;
  private readonly timeoutMs: number;

  constructor(private readonly options: OciChartPullerOptions = {}) {
    this.cache = options.cache ?? new ChartCache();
    this.maxChartBytes = options.maxChartBytes ?? 64 * 1024 * 1024;
    this.timeoutMs = options.timeoutMs ?? 30_000;
  }

  /** The chart archive (`.tgz`) the `OCIRepository` points at. */
  async pull(oci: OciRepositorySpec): Promise<Buffer> {
    const ref = parseReference(ociRepositoryURL(oci));
    const repoKey = `${ref.registry}/${ref.repository}`;
    if (ref.digest) {
      const cached = this.cache.get(`${repoKey}@${ref.digest}`);
      if (cached) return cached;
    }
    const ca = oci.caBundleSecretRef?.name
      ? await this.secretValue(oci.caBundleSecretRef.name, CA_BUNDLE_KEY, 'CA bundle secret')
      : undefined;
    const dockerConfig = oci.pullSecretRef?.name
      ? await this.secretValue(oci.pullSecretRef.name, DOCKER_CONFIG_JSON_KEY, 'pull secret')
      : undefined;
    const credentials = dockerConfig ? credentialsFor(dockerConfig, ref.registry, ref.repository) : undefined;
    const session = new RegistrySession(ref, credentials, ca, this.timeoutMs);
    try {
      const { digest, manifest } = await this.manifest(session, ref);
      const key = `${repoKey}@${digest}`;
      const cached = this.cache.get(key);
      if (cached) return cached;
      const blob = await this.chartLayer(session, ref, manifest);
      this.cache.set(key, blob);
      return blob;
    } catch (err) {
      throw new Error(`failed to pull artifact ${formatReference(ref)}: ${(err as Error).message}`, { cause: err });
    }
  }

  private async secretValue(name: string, key: string, what: string): Promise<string> {
    if (!this.options.readSecret) throw new Error(`cannot read ${what} garden/${name}: no Secret reader configured`);
    const secret = await this.options.readSecret(name).catch((err: unknown) => {
      throw new Error(`failed to get ${what} garden/${name}: ${(err as Error).message}`, { cause: err });
    });
    if (!secret) throw new Error(`${what} garden/${name} not found`);
    const value = secret.data?.[key];
    if (!value) throw new Error(`${what} garden/${name} is missing the data key ${key}`);
    return Buffer.from(value, 'base64').toString('utf8');
  }

  private async manifest(
    session: RegistrySession,
    ref: OciReference,
  ): Promise<{ digest: string; manifest: { mediaType?: string; layers?: Descriptor[] } }> {
    const res = await session.get(`/v2/${ref.repository}/manifests/${ref.digest ?? ref.tag}`, {
      Accept: [OCI_MANIFEST_MEDIA_TYPE, DOCKER_MANIFEST_MEDIA_TYPE, ...INDEX_MEDIA_TYPES].join(', '),
    });
    expectOK(res, 'manifest');
    const digest = sha256(res.body);
    if (ref.digest && digest !== ref.digest) {
      throw new Error(`manifest digest mismatch: expected ${ref.digest}, got ${digest}`);
    }
    let manifest: { mediaType?: string; layers?: Descriptor[] };
    try {
      manifest = JSON.parse(res.body.toString('utf8'));
    } catch (err) {
      throw new Error('the manifest is not valid JSON', { cause: err });
    }
    const mediaType = manifest.mediaType ?? String(res.headers['content-type'] ?? '').split(';')[0];
    if (mediaType && INDEX_MEDIA_TYPES.includes(mediaType)) {
      throw new Error(`the artifact is an image index (${mediaType}), not a Helm chart`);
    }
    return { digest, manifest };
  }

  private async chartLayer(
    session: RegistrySession,
    ref: OciReference,
    manifest: { layers?: Descriptor[] },
  ): Promise<Buffer> {
    const layer = (manifest.layers ?? []).find((l) => l.mediaType === HELM_CHART_LAYER_MEDIA_TYPE);
    if (!layer) throw new Error(`no helm layer (${HELM_CHART_LAYER_MEDIA_TYPE}) found in artifact`);
    if (!layer.digest || !/^sha256:[a-f0-9]{64}$/.test(layer.digest)) {
      throw new Error(`the helm layer has no sha256 digest (${layer.digest})`);
    }
    if (typeof layer.size === 'number' && layer.size > this.maxChartBytes) {
      throw new Error(`the helm layer has ${layer.size} bytes, more than the ${this.maxChartBytes} accepted`);
    }
    const res = await session.get(`/v2/${ref.repository}/blobs/${layer.digest}`, {}, this.maxChartBytes);
    expectOK(res, `blob ${layer.digest}`);
    if (typeof layer.size === 'number' && res.body.length !== layer.size) {
      throw new Error(`blob ${layer.digest} size mismatch: expected ${layer.size} bytes, got ${res.body.length}`);
    }
    const digest = sha256(res.body);
    if (digest !== layer.digest) throw new Error(`blob digest mismatch: expected ${layer.digest}, got ${digest}`);
    return res.body;
  }
}

function expectOK(res: HttpResponse, what: string): void {
  if (res.status === 200) return;
  const detail = res.body.toString('utf8').slice(0, 300).trim();
  throw new Error(`GET ${what}: HTTP ${res.status}${detail ? `: ${detail}` : ''}`);
}

/** One pull's conversation with a registry: the ping, the authentication it asks for, then authorized GETs. */
class RegistrySession {
  private readonly base: string;
  private authorization?: string;
  private authenticated = false;

  constructor(
    private readonly ref: OciReference,
    private readonly credentials: RegistryCredentials | undefined,
    private readonly ca: string | undefined,
    private readonly timeoutMs: number,
  ) {
    this.base = registryBaseURL(ref.registry);
  }

  async get(path: string, headers: Record<string, string>, maxBytes = 4 * 1024 * 1024): Promise<HttpResponse> {
    if (!this.authenticated) await this.authenticate();
    return this.send(
      new URL(path, this.base),
      {
        ...headers,
        ...(this.authorization ? { Authorization: this.authorization } : {}),
      },
      maxBytes,
    );
  }

  private send(url: URL, headers: Record<string, string>, maxBytes: number, method?: 'GET' | 'POST', body?: string) {
    return httpFetch(url, {
      headers,
      maxBytes,
      timeoutMs: this.timeoutMs,
      ...(method ? { method } : {}),
      ...(body !== undefined ? { body } : {}),
      ...(this.ca ? { ca: this.ca } : {}),
    });
  }

  /** `GET /v2/`; a 401 names the scheme: Basic, or Bearer with the realm to get a token from. */
  private async authenticate(): Promise<void> {
    const ping = await this.send(new URL('/v2/', this.base), {}, 64 * 1024);
    this.authenticated = true;
    if (ping.status === 200) return;
    if (ping.status !== 401) throw new Error(`GET /v2/: HTTP ${ping.status}`);
    const header = ping.headers['www-authenticate'];
    const challenge = parseChallenge(Array.isArray(header) ? header[0]! : (header ?? ''));
    const creds = this.credentials;
    if (challenge?.scheme === 'basic') {
      if (!creds?.username && !creds?.password) {
        throw new Error('the registry asks for basic authentication, but no pull secret credentials match it');
      }
      this.authorization = basic(creds);
      return;
    }
    if (challenge?.scheme !== 'bearer' || !challenge.params.realm) {
      throw new Error(`the registry asks for an unsupported authentication: ${String(header ?? '(none)')}`);
    }
    if (creds?.registryToken) {
      this.authorization = `Bearer ${creds.registryToken}`;
      return;
    }
    this.authorization = `Bearer ${await this.token(challenge.params.realm, challenge.params.service)}`;
  }

  /** A pull-scoped token from the realm (the distribution token protocol; OAuth2 with a refresh token). */
  private async token(realm: string, service: string | undefined): Promise<string> {
    const scope = `repository:${this.ref.repository}:pull`;
    const creds = this.credentials;
    let res: HttpResponse;
    if (creds?.identityToken) {
      const form = new URLSearchParams({
        grant_type: 'refresh_token',
        refresh_token: creds.identityToken,
        scope,
        client_id: 'gardener-ts',
        ...(service ? { service } : {}),
      });
      res = await this.send(
        new URL(realm),
        { 'Content-Type': 'application/x-www-form-urlencoded' },
        1024 * 1024,
        'POST',
        form.toString(),
      );
    } else {
      const url = new URL(realm);
      if (service) url.searchParams.set('service', service);
      url.searchParams.set('scope', scope);
      res = await this.send(
        url,
        creds?.username || creds?.password ? { Authorization: basic(creds) } : {},
        1024 * 1024,
      );
    }
    if (res.status !== 200) {
      throw new Error(`token request to ${new URL(realm).origin} for ${scope}: HTTP ${res.status}`);
    }
    const body = JSON.parse(res.body.toString('utf8')) as { token?: string; access_token?: string };
    const token = body.token ?? body.access_token;
    if (!token) throw new Error(`token response of ${new URL(realm).origin} has no token`);
    return token;
  }
}
