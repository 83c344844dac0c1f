// The seed side of provider-local's webhooks: its MutatingWebhookConfiguration applied with the CA bundle and owned
// by the extension's Namespace (it goes when the extension is uninstalled), and the empty patch of every seed Node's
// status on startup, which makes the API server call the node webhook at once (Gardener: "on startup/leader election
// provider-local submits an empty patch to the seed's Nodes") instead of at the kubelet's next status update.
import {
  ignoreNotFound,
  Kinds,
  type Client,
  type KubernetesObject,
  type NodeObject,
} from '@gardener-ts/controller-runtime';
import { withLocalNodeResources } from './node.js';

/** The field manager of the configuration. */
export const WebhookFieldManager = 'gardener-extension-provider-local';

/**
 * Applies the seed's webhook `configuration`, owned by the Namespace `ownerNamespace` (not blocking its deletion),
 * replacing the webhooks of an older version.
 */
export async function reconcileSeedWebhookConfiguration(
  client: Pick<Client, 'get' | 'patch'>,
  configuration: KubernetesObject,
  ownerNamespace: string,
): Promise<void> {
  const ns = await client.get(Kinds.Namespace, { name: ownerNamespace });
  const desired: KubernetesObject = {
    ...configuration,
    metadata: {
      ...configuration.metadata,
      ownerReferences: [
        {
          apiVersion: 'v1',
          kind: 'Namespace',
          name: ownerNamespace,
          uid: ns.metadata!.uid!,
          controller: true,
          blockOwnerDeletion: false,
        },
      ],
    },
  };
  await client.patch(
    Kinds.MutatingWebhookConfiguration,
    { name: configuration.metadata!.name! },
    { type: 'apply', patch: desired as Record<string, unknown>, fieldManager: WebhookFieldManager, force: true },
  );
}

/** Options of {@link triggerNodeWebhook}. */
export interface TriggerOptions {
  /** How often to try a Node whose answer does not show the webhook's resources yet (default 10). */
  attempts?: number;
  /** Pause between attempts (default 500 ms): the API server may not know a just-written configuration yet. */
  retryDelayMs?: number;
  /**
   * How long the webhook server goes on with rounds of attempts, the pause between rounds doubling up to 10 s
   * (default 10 minutes): until its own Pod is ready the webhook has no endpoints.
   */
  timeoutMs?: number;
}

/**
 * Sends an empty patch to the status of every Node, so the node webhook sets their resources; a Node whose answer does
 * not carry them yet (the configuration not yet in effect) is patched again. Returns the Nodes that never did.
 */
export async function triggerNodeWebhook(
  client: Pick<Client, 'list' | 'patch'>,
  options: TriggerOptions = {},
): Promise<string[]> {
  const attempts = options.attempts ?? 10;
  const delay = options.retryDelayMs ?? 500;
  const nodes = await client.list(Kinds.Node);
  const pending = new Set(nodes.items.map((n) => n.metadata!.name!));
  for (let attempt = 0; attempt < attempts && pending.size > 0; attempt++) {
    if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, delay));
    for (const name of [...pending]) {
      const node: NodeObject | undefined = await client
        .patch(Kinds.Node, { name }, { type: 'merge', patch: {} }, { subresource: 'status' })
        .catch(ignoreNotFound);
      if (!node || !withLocalNodeResources(node)) pending.delete(name);
    }
  }
  return [...pending];
}
