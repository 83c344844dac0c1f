// The kube-apiserver's DNS records in the flows (Gardener's `botanist/dnsrecord.go`): a record's credentials copied
// into the control plane namespace (`dnsrecord-internal` / `dnsrecord-external`), the DNSRecord `<shoot>-internal` /
// `<shoot>-external` for `api.<domain>` pointing at the kube-apiserver's load balancer, deployed and waited for until
// its extension handled it; destroyed (and waited for) when the shoot is hibernated and when it is deleted, with its
// Secret. The internal record uses the seed's internal domain (`spec.dns.internal`); the external one the shoot's
// `spec.dns.domain` (./external-dns.ts).
import { Kinds, isNotFound, type Client, type KubernetesObject } from '@gardener-ts/controller-runtime';
import { DNSRecordSecretNames, renderDNSRecord } from '../component/extensions.js';
import type { ShootValues } from '../component/values.js';
import { ExtensionResources, GardenletFieldManager, type WaitOptions } from './extension-resources.js';

/** Why the internal DNS record steps do not run for a seed, or undefined when they do (pure). */
export function internalDNSSkipReason(
  values: Pick<ShootValues, 'seed'>,
  served: (type: string) => boolean,
): string | undefined {
  const internal = values.seed.spec.dns.internal;
  if (!internal?.domain) return `seed ${values.seed.metadata?.name} has no internal domain (spec.dns.internal)`;
  if (!served(internal.type))
    return `no ControllerRegistration in the garden serves DNSRecord of type ${internal.type}`;
  return undefined;
}

/** What a DNS record is deployed with: its provider type, optional zone and the provider's credentials. */
export interface DNSRecordProvider {
  readonly type: string;
  readonly zone?: string;
  readonly credentials: { readonly type?: string; readonly data?: Record<string, string> };
}

/** Options of the DNS record steps: the clock of the reconcile requests and the polling of the waits. */
export interface DNSRecordStepsOptions {
  now?: () => Date;
  wait?: Omit<WaitOptions, 'signal'>;
}

/** Deploy/wait and destroy/wait of one of the kube-apiserver's DNS records (`internal` or `external`). */
export class APIServerDNSRecordSteps {
  private readonly resources: ExtensionResources;

  constructor(
    private readonly seed: Pick<Client, 'get' | 'patch' | 'delete'>,
    private readonly values: ShootValues,
    private readonly purpose: 'internal' | 'external',
    private readonly options: DNSRecordStepsOptions = {},
  ) {
    this.resources = new ExtensionResources(seed);
  }

  /** The DNSRecord `<shoot>-<purpose>` in the control plane namespace. */
  get key() {
    return {
      kind: 'DNSRecord',
      name: `${this.values.shoot.metadata?.name}-${this.purpose}`,
      namespace: this.values.namespace,
    };
  }

  /** The credentials Secret, the record for `address` with a reconcile request, and the wait for its extension. */
  async deploy(provider: DNSRecordProvider, address: string, signal: AbortSignal): Promise<void> {
    const secretName = DNSRecordSecretNames[this.purpose];
    await this.seed.patch(
      Kinds.Secret,
      { namespace: this.values.namespace, name: secretName },
      {
        type: 'apply',
        patch: {
          apiVersion: 'v1',
          kind: 'Secret',
          metadata: { name: secretName, namespace: this.values.namespace },
          type: provider.credentials.type ?? 'Opaque',
          data: provider.credentials.data ?? {},
        },
        fieldManager: GardenletFieldManager,
        force: true,
      },
    );
    const now = (this.options.now?.() ?? new Date()).toISOString();
    const record = renderDNSRecord(this.values, this.purpose, {
      now,
      providerType: provider.type,
      address,
      ...(provider.zone ? { zone: provider.zone } : {}),
    });
    if (!record) throw new Error(`shoot ${this.values.namespace} has no ${this.purpose} domain`);
    await this.resources.deploy(record as unknown as KubernetesObject);
    await this.resources.waitUntilReady(this.key, now, { ...this.options.wait, signal });
  }

  /** The record (waited for until its extension released it), then its Secret. */
  async destroy(signal: AbortSignal): Promise<void> {
    await this.resources.destroy(this.key);
    await this.resources.waitUntilDeleted(this.key, { ...this.options.wait, signal });
    await this.seed
      .delete(Kinds.Secret, { namespace: this.values.namespace, name: DNSRecordSecretNames[this.purpose] })
      .catch((err: unknown) => {
        if (!isNotFound(err)) throw err;
      });
  }
}

/** The internal DNS record steps of one flow run. */
export class InternalDNSRecordSteps {
  private readonly record: APIServerDNSRecordSteps;

  constructor(
    seed: Pick<Client, 'get' | 'patch' | 'delete'>,
    private readonly garden: Pick<Client, 'get'>,
    private readonly values: ShootValues,
    options: DNSRecordStepsOptions = {},
  ) {
    this.record = new APIServerDNSRecordSteps(seed, values, 'internal', options);
  }

  /** "Deploying internal domain DNS record": credentials, the record for `address`, and the wait for its extension. */
  async deploy(address: string, signal: AbortSignal): Promise<void> {
    const internal = this.values.seed.spec.dns.internal!;
    const ref = internal.credentialsRef as { kind?: string; name?: string; namespace?: string };
    if (ref.kind !== 'Secret') {
      throw new Error(
        `seed ${this.values.seed.metadata?.name}: spec.dns.internal.credentialsRef is a ${ref.kind}; only Secrets are supported locally`,
      );
    }
    const credentials = await this.garden.get(Kinds.Secret, { namespace: ref.namespace, name: ref.name ?? '' });
    await this.record.deploy(
      {
        type: internal.type,
        ...(internal.zone ? { zone: internal.zone } : {}),
        credentials: {
          ...(credentials.type ? { type: credentials.type } : {}),
          ...(credentials.data ? { data: credentials.data } : {}),
        },
      },
      address,
      signal,
    );
  }

  /** "Destroying internal domain DNS record": the record (waited for until its extension released it), its Secret. */
  destroy(signal: AbortSignal): Promise<void> {
    return this.record.destroy(signal);
  }
}
