import { describe, expect, it } from 'vitest';
import { SecretKind, isAlreadyExists, isNotFound, type Secret } from '@gardener-ts/controller-runtime';
import { FakeSecretsClient } from './fake-secrets-client.js';

const secret = (name: string, labels: Record<string, string> = {}): Secret => ({
  apiVersion: 'v1',
  kind: 'Secret',
  metadata: { name, namespace: 'ns', labels },
  immutable: true,
  data: { a: 'YQ==' },
});

describe('FakeSecretsClient', () => {
  it('behaves like the API server for the calls the manager makes', async () => {
    const c = new FakeSecretsClient();
    c.now = () => new Date('2026-01-01T00:00:00.500Z');
    const created = await c.create(secret('s1', { app: 'x' }));
    expect(created.metadata!.creationTimestamp).toBe('2026-01-01T00:00:00Z');
    await c.create(secret('s2', { app: 'y' }));
    expect(await c.create(secret('s1')).catch((e: unknown) => isAlreadyExists(e))).toBe(true);
    expect(
      (await c.list(SecretKind, { namespace: 'ns', labelSelector: 'app=x' })).items.map((s) => s.metadata!.name),
    ).toEqual(['s1']);
    expect((await c.list(SecretKind, { namespace: 'other' })).items).toEqual([]);
    const patched = await c.patch(
      SecretKind,
      { namespace: 'ns', name: 's1' },
      { type: 'merge', patch: { metadata: { labels: { app: null, b: 'c' } } } },
    );
    expect(patched.metadata!.labels).toEqual({ b: 'c' });
    await expect(
      c.patch(SecretKind, { namespace: 'ns', name: 's1' }, { type: 'merge', patch: { data: { a: 'Yg==' } } }),
    ).rejects.toThrow(/field is immutable/);
    await c.delete(SecretKind, { namespace: 'ns', name: 's1' });
    expect(await c.get(SecretKind, { namespace: 'ns', name: 's1' }).catch((e: unknown) => isNotFound(e))).toBe(true);
  });
});
