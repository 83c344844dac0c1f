import { describe, expect, it } from 'vitest';
import { ApiError, type Client, type KubernetesObject, type NodeObject } from '@gardener-ts/controller-runtime';
import { seedWebhookConfiguration } from './configurations.js';
import { reconcileSeedWebhookConfiguration, triggerNodeWebhook } from './registration.js';

const node = (name: string, cpu: string): NodeObject => ({
  apiVersion: 'v1',
  kind: 'Node',
  metadata: { name },
  status: { capacity: { cpu, memory: '100Gi' }, allocatable: { cpu, memory: '100Gi' } },
});

/** Nodes whose empty status patch answers with `answers[name]` in turn (the last one repeats); absent: NotFound. */
function nodesClient(answers: Record<string, NodeObject[]>, listed = Object.keys(answers)) {
  const patches: string[] = [];
  const client = {
    list: async () => ({ items: listed.map((name) => node(name, '2')) }),
    patch: async (kind: { kind: string }, key: { name: string }, patch: unknown, opts: { subresource?: string }) => {
      patches.push(`${kind.kind}/${key.name}/${opts.subresource} ${JSON.stringify(patch)}`);
      const queue = answers[key.name];
      if (!queue) throw new ApiError(404, 'NotFound', `nodes "${key.name}" not found`);
      return queue.length > 1 ? queue.shift()! : queue[0]!;
    },
  } as unknown as Pick<Client, 'list' | 'patch'>;
  return { client, patches };
}

describe('triggerNodeWebhook', () => {
  it('sends an empty status patch to every Node', async () => {
    const { client, patches } = nodesClient({ a: [node('a', '100')], b: [node('b', '100')] });
    expect(await triggerNodeWebhook(client)).toEqual([]);
    expect(patches).toEqual(['Node/a/status {"type":"merge","patch":{}}', 'Node/b/status {"type":"merge","patch":{}}']);
  });

  it('patches again the Nodes the webhook has not answered for yet, and names those it never did', async () => {
    const { client, patches } = nodesClient(
      {
        late: [node('late', '2'), node('late', '2'), node('late', '100')],
        never: [node('never', '2')],
        gone: undefined as unknown as NodeObject[],
      },
      ['late', 'never', 'gone'],
    );
    expect(await triggerNodeWebhook(client, { attempts: 4, retryDelayMs: 1 })).toEqual(['never']);
    expect(patches.filter((p) => p.startsWith('Node/late/'))).toHaveLength(3);
    expect(patches.filter((p) => p.startsWith('Node/never/'))).toHaveLength(4);
    expect(patches.filter((p) => p.startsWith('Node/gone/'))).toHaveLength(1);
  });
});

describe('reconcileSeedWebhookConfiguration', () => {
  it('applies the configuration owned by the extension namespace, without blocking its deletion', async () => {
    const applied: KubernetesObject[] = [];
    const client = {
      get: async () => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'ext', uid: 'uid-1' } }),
      patch: async (
        _kind: unknown,
        _key: unknown,
        patch: { type: string; patch: KubernetesObject; force?: boolean },
      ) => {
        expect(patch).toMatchObject({ type: 'apply', force: true });
        applied.push(patch.patch);
        return patch.patch;
      },
    } as unknown as Pick<Client, 'get' | 'patch'>;
    const configuration = seedWebhookConfiguration('ext', 'CA');
    await reconcileSeedWebhookConfiguration(client, configuration, 'ext');
    expect(applied).toHaveLength(1);
    expect(applied[0]!.metadata).toEqual({
      ...configuration.metadata,
      ownerReferences: [
        { apiVersion: 'v1', kind: 'Namespace', name: 'ext', uid: 'uid-1', controller: true, blockOwnerDeletion: false },
      ],
    });
    expect((applied[0] as { webhooks: unknown[] }).webhooks).toEqual(
      (configuration as { webhooks: unknown[] }).webhooks,
    );
  });
});
