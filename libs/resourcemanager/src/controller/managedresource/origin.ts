// The origin annotation: which ManagedResource an object belongs to — `<namespace>/<name>`, or
// `<cluster id>:<namespace>/<name>` when a cluster id is configured.

export function originFor(clusterID: string, namespace: string, name: string): string {
  return clusterID ? `${clusterID}:${namespace}/${name}` : `${namespace}/${name}`;
}

/** The ManagedResource an origin names, or undefined when it is malformed or names another cluster. */
export function parseOrigin(
  origin: string | undefined,
  clusterID: string,
): { namespace: string; name: string } | undefined {
  if (!origin) return undefined;
  let rest = origin;
  const slash = origin.indexOf('/');
  const colon = origin.indexOf(':');
  if (colon >= 0 && colon < slash) {
    if (origin.slice(0, colon) !== clusterID) return undefined;
    rest = origin.slice(colon + 1);
  } else if (clusterID) {
    return undefined;
  }
  const [namespace, name, ...extra] = rest.split('/');
  if (!namespace || !name || extra.length > 0) return undefined;
  return { namespace, name };
}
