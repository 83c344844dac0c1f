// Self-registration (gardener-ts extension `webhookRegistration`): the Mutating/ValidatingWebhookConfigurations of the
// enabled webhooks, created or replaced in the target cluster with the CA bundle of the serving certificate. Gardener's
// resource-manager leaves this to gardenlet; here it lets the app run on its own.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ResourceManagerConfiguration } from '@gardener-ts/component-config';
import {
  isAlreadyExists,
  isConflict,
  isNotFound,
  kind,
  type ClientTarget,
  type Client,
  type KubernetesObject,
} from '@gardener-ts/controller-runtime';
import type { Logger } from '@gardener-ts/logging';
import { webhookConfigurations } from './configurations.js';

const unspecified = new Set(['', '0.0.0.0', '::', '[::]']);

/** Where the API server reaches the webhooks: the configured URL or Service, else this process's address and port. */
export function registrationTarget(config: ResourceManagerConfiguration, port: number): ClientTarget {
  const r = config.webhookRegistration;
  if (r.url) return { url: r.url };
  if (r.service) return { service: r.service };
  const bind = config.server.webhooks.bindAddress;
  const host = unspecified.has(bind) ? '127.0.0.1' : bind.includes(':') ? `[${bind}]` : bind;
  return { url: `https://${host}:${port}` };
}

/** The CA that signed the serving certificate: a generated one, else `ca.crt` of the directory, else `tls.crt`. */
export async function caBundleOf(certDir: string, generatedCaPem?: string): Promise<string> {
  if (generatedCaPem) return generatedCaPem;
  try {
    return await readFile(join(certDir, 'ca.crt'), 'utf8');
  } catch {
    return readFile(join(certDir, 'tls.crt'), 'utf8');
  }
}

async function createOrReplace(client: Client, desired: KubernetesObject): Promise<void> {
  const k = kind(desired.apiVersion!, desired.kind!);
  for (let attempt = 0; ; attempt++) {
    try {
      const live = await client.get(k, { name: desired.metadata!.name! }).catch((err: unknown) => {
        if (isNotFound(err)) return undefined;
        throw err;
      });
      if (!live) await client.create(desired);
      else
        await client.update({
          ...desired,
          metadata: { ...live.metadata, ...desired.metadata, resourceVersion: live.metadata?.resourceVersion },
        });
      return;
    } catch (err) {
      // Another replica wrote it meanwhile: read again.
      if (attempt < 5 && (isConflict(err) || isAlreadyExists(err))) continue;
      throw err;
    }
  }
}

/** Writes the configurations of the enabled webhooks; returns their kinds and names. */
export async function registerWebhookConfigurations(
  client: Client,
  config: ResourceManagerConfiguration,
  target: ClientTarget,
  caBundle: string,
  log: Logger,
): Promise<string[]> {
  const objects = webhookConfigurations(config, target, caBundle, config.webhookRegistration.name);
  for (const obj of objects) await createOrReplace(client, obj);
  const names = objects.map((o) => `${o.kind}/${o.metadata?.name}`);
  log.info({ configurations: names, target }, 'Webhook configurations registered in the target cluster');
  return names;
}
