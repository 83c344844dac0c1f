import { describe, expect, it } from 'vitest';
import type { Secret } from '@gardener-ts/controller-runtime';
import { isSeedDomainSecret, mapSeedNamespaceToSeed } from './add.js';

const secret = (namespace: string, role: string, annotations: Record<string, string> = {}): Secret => ({
  apiVersion: 'v1',
  kind: 'Secret',
  metadata: { namespace, name: 'x', labels: { 'gardener.cloud/role': role }, annotations },
});

describe('controllerregistration-seed Secret trigger', () => {
  it('passes domain secrets of seed-<name> namespaces and maps them to their seed', () => {
    expect(isSeedDomainSecret({ type: 'create', object: secret('seed-local', 'internal-domain') })).toBe(true);
    expect(isSeedDomainSecret({ type: 'delete', object: secret('seed-local', 'default-domain') })).toBe(true);
    expect(isSeedDomainSecret({ type: 'create', object: secret('garden', 'internal-domain') })).toBe(false);
    expect(isSeedDomainSecret({ type: 'create', object: secret('seed-local', 'alerting') })).toBe(false);
    expect(mapSeedNamespaceToSeed(secret('seed-local', 'internal-domain'))).toEqual([{ namespace: '', name: 'local' }]);
  });

  it('passes updates only when labels or annotations changed', () => {
    const a = secret('seed-local', 'internal-domain', { 'dns.gardener.cloud/provider': 'local' });
    const same = { ...structuredClone(a), data: { k: 'dg==' } };
    const moved = secret('seed-local', 'internal-domain', { 'dns.gardener.cloud/provider': 'aws-route53' });
    expect(isSeedDomainSecret({ type: 'update', oldObject: a, object: same })).toBe(false);
    expect(isSeedDomainSecret({ type: 'update', oldObject: a, object: moved })).toBe(true);
    expect(isSeedDomainSecret({ type: 'update', oldObject: a, object: secret('seed-local', 'alerting') })).toBe(true);
  });
});
