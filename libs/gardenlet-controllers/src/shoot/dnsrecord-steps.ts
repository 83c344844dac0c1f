// The kube-apiserver's internal DNS record in the flows (Gardener's `botanist/dnsrecord.go` with the seed's internal
// domain): the seed's `spec.dns.internal` credentials copied into the control plane namespace as
// `dnsrecord-internal`, the DNSRecord `<shoot>-internal` for `api.<shoot>.<project>.<internal domain>` pointing at
// the kube-apiserver's load balancer, deployed and waited for until its extension handled it; destroyed (and waited
// for) when the shoot is hibernated and when it is deleted, with its Secret.
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

/** The internal DNS record steps of one flow run. */
export class InternalDNSRecordSteps {
  private readonly resources: ExtensionResources;

  constructor(
    private readonly seed: Pick<Client, 'get' | 'patch' | 'delete'>,
    private readonly garden: Pick<Client, 'get'>,
    private readonly values: ShootValues,
    private readonly options: { now?: () => Date; wait?: Omit<WaitOptions, 'signal'> } = {},
  ) {
    this.resources = new ExtensionResources(seed);
  }

  private get key() {
    return {
      kind: 'DNSRecord',
      name: `${this.values.shoot.metadata?.name}-internal`,
      namespace: this.values.namespace,
    };
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
    await this.seed.patch(
      Kinds.Secret,
      { namespace: this.values.namespace, name: DNSRecordSecretNames.internal },
      {
        type: 'apply',
        patch: {
          apiVersion: 'v1',
          kind: 'Secret',
          metadata: { name: DNSRecordSecretNames.internal, namespace: this.values.namespace },
          type: credentials.type ?? 'Opaque',
          data: credentials.data ?? {},
        },
        fieldManager: GardenletFieldManager,
        force: true,
      },
    );
    const now = (this.options.now?.() ?? new Date()).toISOString();
    const record = renderDNSRecord(this.values, 'internal', { now, providerType: internal.type, address });
    if (!record) throw new Error(`seed ${this.values.seed.metadata?.name} has no internal domain`);
    await this.resources.deploy(record as unknown as KubernetesObject);
    await this.resources.waitUntilReady(this.key, now, { ...this.options.wait, signal });
  }

  /** "Destroying internal domain DNS record": the record (waited for until its extension released it), its Secret. */
  async destroy(signal: AbortSignal): Promise<void> {
    await this.resources.destroy(this.key);
    await this.resources.waitUntilDeleted(this.key, { ...this.options.wait, signal });
    await this.seed
      .delete(Kinds.Secret, { namespace: this.values.namespace, name: DNSRecordSecretNames.internal })
      .catch((err: unknown) => {
        if (!isNotFound(err)) throw err;
      });
  }
}
