// OCI artifact references as Gardener's `OCIRepository` names them (core.gardener.cloud/v1 ControllerDeployment
// `helm.ociRepository`, also the operator's Extension and the seedmanagement Gardenlet): `ref`, else
// `repository@digest`, else `repository:tag`, an `oci://` prefix dropped. Parsed strictly, as Gardener parses them:
// the registry, the repository and a tag or a digest must all be given (no Docker Hub or `latest` defaulting).
// Pure.

/** Where to pull an artifact from (the `OCIRepository` fields this package reads). */
export interface OciRepositorySpec {
  ref?: string;
  repository?: string;
  tag?: string;
  digest?: string;
  pullSecretRef?: { name?: string };
  caBundleSecretRef?: { name?: string };
}

/** A parsed artifact reference. A digest, when present, wins over the tag. */
export interface OciReference {
  /** `host[:port]` as written (`docker.io` becomes `index.docker.io`). */
  registry: string;
  /** The repository path inside the registry, e.g. `gardener/charts/provider-local`. */
  repository: string;
  tag?: string;
  /** `sha256:<64 hex>`. */
  digest?: string;
}

/** The reference string of an `OCIRepository`: `ref`, else `repository@digest`, else `repository:tag`. */
export function ociRepositoryURL(oci: OciRepositorySpec): string {
  let ref = '';
  if (oci.ref) ref = oci.ref;
  else if (oci.repository && oci.digest) ref = `${oci.repository}@${oci.digest}`;
  else if (oci.repository && oci.tag) ref = `${oci.repository}:${oci.tag}`;
  else if (oci.repository) ref = oci.repository;
  return ref.startsWith('oci://') ? ref.slice('oci://'.length) : ref;
}

// The distribution spec's grammar (distribution/reference): path components of lowercase alphanumerics joined by
// `.`, `_`, `__` or dashes; tags of word characters, dots and dashes, at most 128; registry hosts with an optional port.
const PATH_COMPONENT = /^[a-z0-9]+(?:(?:\.|_|__|-+)[a-z0-9]+)*$/;
const TAG = /^[\w][\w.-]{0,127}$/;
const DIGEST = /^sha256:[a-f0-9]{64}$/;
const HOST =
  /^(?:\[[0-9a-fA-F:]+\]|[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?)*)(?::[0-9]+)?$/;

/** Parses `registry/repository[:tag][@sha256:…]` strictly; throws an Error naming what is wrong. */
export function parseReference(input: string): OciReference {
  const ref = input.startsWith('oci://') ? input.slice('oci://'.length) : input;
  if (ref === '') throw new Error('empty OCI reference');
  let rest = ref;
  let digest: string | undefined;
  const at = rest.indexOf('@');
  if (at >= 0) {
    digest = rest.slice(at + 1);
    rest = rest.slice(0, at);
    if (!DIGEST.test(digest)) throw new Error(`OCI reference ${input}: digest ${digest} is not sha256:<64 hex digits>`);
  }
  let tag: string | undefined;
  const lastSlash = rest.lastIndexOf('/');
  const colon = rest.lastIndexOf(':');
  if (colon > lastSlash) {
    tag = rest.slice(colon + 1);
    rest = rest.slice(0, colon);
    if (!TAG.test(tag)) throw new Error(`OCI reference ${input}: invalid tag ${tag}`);
  }
  const slash = rest.indexOf('/');
  const first = slash < 0 ? '' : rest.slice(0, slash);
  // The first component names a registry when it looks like a host: a dot, a port, or localhost.
  if (slash < 0 || !(first.includes('.') || first.includes(':') || first === 'localhost' || first.startsWith('['))) {
    throw new Error(`OCI reference ${input}: the registry must be given (e.g. registry.example.com/${rest})`);
  }
  if (!HOST.test(first)) throw new Error(`OCI reference ${input}: invalid registry ${first}`);
  const repository = rest.slice(slash + 1);
  if (repository.length > 255 || !repository.split('/').every((c) => PATH_COMPONENT.test(c))) {
    throw new Error(`OCI reference ${input}: invalid repository ${repository}`);
  }
  if (!tag && !digest) throw new Error(`OCI reference ${input}: a tag or a digest must be given`);
  const registry = first === 'docker.io' ? 'index.docker.io' : first;
  return { registry, repository, ...(tag ? { tag } : {}), ...(digest ? { digest } : {}) };
}

/** The reference as a string, `registry/repository[:tag][@digest]`. */
export function formatReference(ref: OciReference): string {
  return `${ref.registry}/${ref.repository}${ref.tag ? `:${ref.tag}` : ''}${ref.digest ? `@${ref.digest}` : ''}`;
}

/**
 * Whether the registry is spoken to over plain HTTP: loopback hosts (`localhost`, `127.0.0.0/8`, `[::1]`), as
 * go-containerregistry does, and Gardener's local setup registry `registry.local.gardener.cloud:<port>`. Everything
 * else is HTTPS.
 */
export function usesPlainHttp(registry: string): boolean {
  const host = registry.startsWith('[') ? registry.slice(0, registry.indexOf(']') + 1) : registry.split(':')[0]!;
  return (
    host === 'localhost' ||
    host === '[::1]' ||
    /^127(?:\.[0-9]{1,3}){3}$/.test(host) ||
    registry.startsWith('registry.local.gardener.cloud:')
  );
}

/** The registry's base URL (`http(s)://host[:port]`). */
export function registryBaseURL(registry: string): string {
  return `${usesPlainHttp(registry) ? 'http' : 'https'}://${registry}`;
}
