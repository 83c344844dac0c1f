// Image references as the image map needs them: the repository (registry and path) apart from tag and digest.

export interface ImageReference {
  /** Registry host and path, e.g. `registry.k8s.io/kube-apiserver`. */
  repository: string;
  tag?: string;
  digest?: string;
}

export function parseImageReference(image: string): ImageReference {
  const trimmed = image.trim();
  if (!trimmed) throw new Error('image reference is empty');
  let rest = trimmed;
  let digest: string | undefined;
  const at = rest.indexOf('@');
  if (at >= 0) {
    digest = rest.slice(at + 1);
    rest = rest.slice(0, at);
  }
  // A colon after the last slash is a tag; one before it belongs to a registry port (`localhost:5001/app`).
  const colon = rest.lastIndexOf(':');
  if (colon > rest.lastIndexOf('/')) {
    return { repository: rest.slice(0, colon), tag: rest.slice(colon + 1), digest };
  }
  return { repository: rest, digest };
}
