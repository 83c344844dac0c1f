// The TokenRequestor: for each token-requestor Secret in the source cluster, ensures the ServiceAccount named by its
// annotations in the target cluster, requests a token for it (TokenRequest API) and writes it into the Secret's
// `.data.token`, or into its kubeconfig, or into a Secret in the target cluster; renews at 80 % of the lifetime.
import {
  isNotFound,
  kind,
  type ApiClient,
  type Client,
  type KubernetesObject,
  type ReconcileContext,
  type ReconcileResult,
  type Request,
} from '@gardener-ts/controller-runtime';
import { setKubeconfigToken } from './kubeconfig.js';
import { DataKey, GardenerAudience, TokenRequestorAnnotation as A } from './names.js';
import {
  caBundleUpToDate,
  expirationSeconds,
  hasToken,
  injectsCABundle,
  isTokenRequestorSecret,
  renewAfterMs,
  renewalPendingMs,
  renewTimestamp,
} from './renewal.js';

export interface SecretObject extends KubernetesObject {
  type?: string;
  data?: Record<string, string>;
}
export interface ServiceAccountObject extends KubernetesObject {
  automountServiceAccountToken?: boolean;
}
export const SecretKind = kind<SecretObject>('v1', 'Secret');
export const ServiceAccountKind = kind<ServiceAccountObject>('v1', 'ServiceAccount');

export interface TokenRequestorOptions {
  /** Reads and patches the token-requestor Secrets (source cluster). */
  source: Client;
  /** ServiceAccounts, TokenRequests and target Secrets (target cluster). */
  target: ApiClient;
  /** Only Secrets labeled `resources.gardener.cloud/class: <class>`; undefined: all. */
  class?: string;
  audiences?: string[];
  /** The target cluster's CA bundle (PEM), written for Secrets annotated `inject-ca-bundle: "true"`. */
  caData?: string;
  /**
   * The namespace of every ServiceAccount, ignoring the `serviceaccount.resources.gardener.cloud/namespace` annotation
   * (the gardenlet's instance: always the seed's namespace in the garden).
   */
  serviceAccountNamespace?: string;
  now?: () => Date;
  random?: () => number;
}

interface TokenRequestStatus {
  status?: { token?: string; expirationTimestamp?: string };
}

const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');
const unb64 = (s: string) => Buffer.from(s, 'base64').toString('utf8');

/**
 * `data` with the token written where it belongs: into the kubeconfig if there is one, else as `token`. With a CA
 * (`caData`, PEM, only passed when the CA bundle is to be injected) the kubeconfig's current cluster gets it as
 * `certificate-authority-data`, else `bundle.crt` holds it; without one `bundle.crt` is removed (as Gardener does).
 */
export function withToken(
  data: Record<string, string> | undefined,
  token: string,
  caData = '',
): Record<string, string> {
  const out = { ...(data ?? {}) };
  if (out[DataKey.Kubeconfig] === undefined) {
    out[DataKey.Token] = b64(token);
    if (caData !== '') out[DataKey.CABundle] = b64(caData);
    else delete out[DataKey.CABundle];
  } else {
    out[DataKey.Kubeconfig] = b64(setKubeconfigToken(unb64(out[DataKey.Kubeconfig]), token, caData));
  }
  return out;
}

function targetSecretKey(annotations: Record<string, string>): { namespace: string; name: string } | undefined {
  const name = annotations[A.TargetSecretName];
  const namespace = annotations[A.TargetSecretNamespace];
  return name && namespace ? { namespace, name } : undefined;
}

export class TokenRequestor {
  private readonly now: () => Date;
  private readonly random: () => number;

  constructor(private readonly o: TokenRequestorOptions) {
    this.now = o.now ?? (() => new Date());
    this.random = o.random ?? Math.random;
  }

  async reconcile(req: Request, ctx: ReconcileContext): Promise<ReconcileResult | void> {
    const secret = await this.o.source.get(SecretKind, req).catch((err) => {
      if (isNotFound(err)) return undefined;
      throw err;
    });
    if (!secret || !isTokenRequestorSecret(secret, this.o.class)) return;
    const annotations = secret.metadata?.annotations ?? {};
    const targetKey = targetSecretKey(annotations);

    const pending = await this.pendingMs(annotations, secret, targetKey);
    if (pending !== undefined) {
      ctx.log.debug({ afterMs: pending }, 'No need to generate new token, renewal is scheduled');
      return { requeueAfter: pending };
    }

    ctx.log.info('Requesting new token');
    const sa = await this.ensureServiceAccount(annotations);
    const result = await this.requestToken(sa, expirationSeconds(annotations));
    const token = result.status?.token ?? '';
    const now = this.now();
    const expiration = result.status?.expirationTimestamp
      ? new Date(result.status.expirationTimestamp)
      : new Date(now.getTime() + expirationSeconds(annotations) * 1000);
    const renewMs = renewAfterMs(expiration, now, this.random());
    const injectCA = injectsCABundle(annotations);
    if (injectCA) ctx.log.info('Injecting CA bundle into secret');
    const caData = injectCA ? (this.o.caData ?? '') : '';

    let data: Record<string, string | null>;
    if (targetKey) {
      await this.writeTargetSecret(targetKey, token, caData);
      // The token (and CA bundle) lives in the target Secret only.
      data = {};
      for (const key of [DataKey.Token, DataKey.CABundle, DataKey.Kubeconfig])
        if (secret.data?.[key] !== undefined) data[key] = null;
    } else {
      data = withToken(secret.data, token, caData);
      // A merge patch removes a key only when it says null.
      if (secret.data?.[DataKey.CABundle] !== undefined && data[DataKey.CABundle] === undefined)
        data[DataKey.CABundle] = null;
    }
    // Optimistic lock: whoever maintains the kubeconfig (e.g. a new CA bundle) may have written meanwhile.
    await this.o.source.patch(SecretKind, req, {
      type: 'merge',
      patch: {
        metadata: {
          resourceVersion: secret.metadata?.resourceVersion,
          annotations: { [A.RenewTimestamp]: renewTimestamp(new Date(now.getTime() + renewMs)) },
        },
        ...(Object.keys(data).length > 0 ? { data } : {}),
      },
    });
    ctx.log.info({ afterMs: renewMs }, 'Successfully requested token and scheduled renewal');
    return { requeueAfter: renewMs };
  }

  private async pendingMs(
    annotations: Record<string, string>,
    secret: SecretObject,
    targetKey: ReturnType<typeof targetSecretKey>,
  ): Promise<number | undefined> {
    const renewAt = annotations[A.RenewTimestamp];
    if (!renewAt) return undefined;
    let data = secret.data;
    if (targetKey) {
      const target = await this.o.target.get(SecretKind, targetKey).catch((err) => {
        if (isNotFound(err)) return undefined;
        throw new Error(`could not read target secret: ${(err as Error).message}`);
      });
      if (!target) return undefined; // create it now
      data = target.data;
    }
    const tokenPresent = hasToken(data);
    if (tokenPresent && injectsCABundle(annotations)) {
      let upToDate: boolean;
      try {
        upToDate = caBundleUpToDate(data, this.o.caData ?? '');
      } catch (err) {
        throw new Error(`could not check whether the caBundle is up to date: ${(err as Error).message}`);
      }
      if (!upToDate) return undefined; // a new token with the current CA bundle now
    }
    return renewalPendingMs(renewAt, tokenPresent, this.now());
  }

  private async ensureServiceAccount(
    annotations: Record<string, string>,
  ): Promise<{ namespace: string; name: string }> {
    const key = {
      namespace: this.o.serviceAccountNamespace ?? annotations[A.ServiceAccountNamespace] ?? '',
      name: annotations[A.ServiceAccountName] ?? '',
    };
    let labels: Record<string, string> | undefined;
    const labelsJSON = annotations[A.ServiceAccountLabels];
    if (labelsJSON) {
      try {
        labels = JSON.parse(labelsJSON);
      } catch (err) {
        throw new Error(
          `failed unmarshalling service account labels from secret annotation "${A.ServiceAccountLabels}" (${labelsJSON}): ${(err as Error).message}`,
        );
      }
    }
    const existing = await this.o.target.get(ServiceAccountKind, key).catch((err) => {
      if (isNotFound(err)) return undefined;
      throw err;
    });
    if (!existing) {
      await this.o.target.create({
        apiVersion: 'v1',
        kind: 'ServiceAccount',
        metadata: { ...key, labels },
        automountServiceAccountToken: false,
      });
      return key;
    }
    if (
      existing.automountServiceAccountToken !== false ||
      JSON.stringify(existing.metadata?.labels ?? {}) !== JSON.stringify(labels ?? {})
    ) {
      const updated = structuredClone(existing);
      updated.metadata = { ...updated.metadata, labels };
      updated.automountServiceAccountToken = false;
      await this.o.target.update(updated);
    }
    return key;
  }

  private async requestToken(sa: { namespace: string; name: string }, seconds: number): Promise<TokenRequestStatus> {
    const path = `/api/v1/namespaces/${encodeURIComponent(sa.namespace)}/serviceaccounts/${encodeURIComponent(sa.name)}/token`;
    return this.o.target.transport.request<TokenRequestStatus>({
      method: 'POST',
      path,
      body: {
        apiVersion: 'authentication.k8s.io/v1',
        kind: 'TokenRequest',
        spec: { audiences: this.o.audiences ?? [GardenerAudience], expirationSeconds: seconds },
      },
    });
  }

  private async writeTargetSecret(
    key: { namespace: string; name: string },
    token: string,
    caData: string,
  ): Promise<void> {
    const existing = await this.o.target.get(SecretKind, key).catch((err) => {
      if (isNotFound(err)) return undefined;
      throw err;
    });
    if (!existing) {
      await this.o.target.create({
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: key,
        data: withToken(undefined, token, caData),
      });
      return;
    }
    const updated = structuredClone(existing);
    updated.data = withToken(existing.data, token, caData);
    await this.o.target.update(updated);
  }
}
