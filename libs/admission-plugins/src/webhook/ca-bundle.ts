// The caBundle of the webhook configurations the chart renders: the app owns its serving CA, so at start it writes
// the CA into every webhook of its Mutating/ValidatingWebhookConfiguration (Gardener's admission controller keeps its
// webhook configurations' caBundle up to date from its own certificate management the same way).
import { isConflict, isNotFound, kind, type Client, type KubernetesObject } from '@gardener-ts/controller-runtime';
import { WEBHOOK_CONFIGURATION_NAME } from './configurations.js';

const KINDS = ['MutatingWebhookConfiguration', 'ValidatingWebhookConfiguration'] as const;
const API_VERSION = 'admissionregistration.k8s.io/v1';

type WebhookConfiguration = KubernetesObject & {
  webhooks?: { clientConfig?: { caBundle?: string; service?: { name?: string; namespace?: string } } }[];
};

/** The Service the chart's configurations point at (so the serving certificate can be made for its names). */
export async function configuredService(
  client: Pick<Client, 'get'>,
  name = WEBHOOK_CONFIGURATION_NAME,
): Promise<{ name: string; namespace: string } | undefined> {
  for (const k of KINDS) {
    try {
      const config = (await client.get(kind(API_VERSION, k), { name })) as WebhookConfiguration;
      const service = config.webhooks?.find((w) => w.clientConfig?.service)?.clientConfig?.service;
      if (service?.name && service.namespace) return { name: service.name, namespace: service.namespace };
    } catch (err) {
      if (!isNotFound(err)) throw new Error(`reading ${k} ${name}`, { cause: err });
    }
  }
  return undefined;
}

/** The configuration with `caBundle` (base64 of the PEM) in every webhook, or undefined when nothing changes. */
export function withCABundle<T extends WebhookConfiguration>(config: T, caPem: string): T | undefined {
  const caBundle = Buffer.from(caPem).toString('base64');
  if ((config.webhooks ?? []).every((w) => w.clientConfig?.caBundle === caBundle)) return undefined;
  return {
    ...config,
    webhooks: (config.webhooks ?? []).map((w) => ({ ...w, clientConfig: { ...w.clientConfig, caBundle } })),
  };
}

/** Writes the CA into both configurations named `name`; returns the ones found (missing ones are skipped). */
export async function injectCABundle(
  client: Pick<Client, 'get' | 'update'>,
  caPem: string,
  name = WEBHOOK_CONFIGURATION_NAME,
): Promise<string[]> {
  const found: string[] = [];
  for (const k of KINDS) {
    for (let attempt = 0; ; attempt++) {
      try {
        const config = (await client.get(kind(API_VERSION, k), { name })) as WebhookConfiguration;
        found.push(`${k}/${name}`);
        const next = withCABundle(config, caPem);
        if (next) await client.update(next);
        break;
      } catch (err) {
        if (isNotFound(err)) break;
        if (isConflict(err) && attempt < 5) continue;
        throw new Error(`writing the caBundle of ${k} ${name}`, { cause: err });
      }
    }
  }
  return found;
}
