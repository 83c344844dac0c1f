// Service-account tokens for projected volumes, requested through TokenRequest bound to the Pod and refreshed, as the
// kubelet does, once 80% of their lifetime has passed (or after 24 hours).
import type * as k8s from '@kubernetes/client-node';

const REFRESH_FRACTION = 0.8;
const MAX_AGE_MS = 24 * 3600 * 1000;

interface CachedToken {
  token: string;
  refreshAt: number;
}

export class ServiceAccountTokens {
  private readonly cache = new Map<string, CachedToken>();

  constructor(private readonly core: k8s.CoreV1Api) {}

  async token(pod: k8s.V1Pod, source: k8s.V1ServiceAccountTokenProjection): Promise<string> {
    const meta = pod.metadata!;
    const serviceAccount = pod.spec?.serviceAccountName || 'default';
    const expirationSeconds = source.expirationSeconds ?? 3600;
    const key = JSON.stringify([meta.uid, serviceAccount, source.audience ?? '', expirationSeconds]);
    const cached = this.cache.get(key);
    if (cached && Date.now() < cached.refreshAt) return cached.token;
    const issuedAt = Date.now();
    const response = await this.core.createNamespacedServiceAccountToken({
      name: serviceAccount,
      namespace: meta.namespace!,
      body: {
        spec: {
          audiences: source.audience ? [source.audience] : [],
          expirationSeconds,
          boundObjectRef: { apiVersion: 'v1', kind: 'Pod', name: meta.name, uid: meta.uid },
        },
      },
    });
    const token = response.status?.token;
    if (!token)
      throw new Error(`TokenRequest for service account ${meta.namespace}/${serviceAccount} returned no token`);
    const expiresAt = response.status?.expirationTimestamp
      ? new Date(response.status.expirationTimestamp).getTime()
      : issuedAt + expirationSeconds * 1000;
    const lifetime = expiresAt - issuedAt;
    this.cache.set(key, { token, refreshAt: issuedAt + Math.min(lifetime * REFRESH_FRACTION, MAX_AGE_MS) });
    return token;
  }

  forget(podUid: string): void {
    for (const key of this.cache.keys()) if (key.startsWith(`["${podUid}"`)) this.cache.delete(key);
  }
}
