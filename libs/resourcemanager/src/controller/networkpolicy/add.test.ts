import { describe, expect, it } from 'vitest';
import { servicePredicate, servicesForIngress, servicesForNamespace } from './add.js';
import type { Service } from './types.js';

const svc = (namespace: string, name: string, annotations: Record<string, string> = {}): Service => ({
  metadata: { namespace, name, annotations },
  spec: { selector: { app: name }, ports: [{ port: 80 }] },
});

describe('servicesForNamespace', () => {
  it('maps a namespace to its own Services and to those whose namespace selectors select it', () => {
    const services = [
      svc('a', 'own'),
      svc('b', 'selects', {
        'networking.resources.gardener.cloud/namespace-selectors': '[{"matchLabels":{"team":"x"}}]',
      }),
      svc('b', 'other', {
        'networking.resources.gardener.cloud/namespace-selectors': '[{"matchLabels":{"team":"y"}}]',
      }),
      svc('b', 'broken', { 'networking.resources.gardener.cloud/namespace-selectors': 'nope' }),
    ];
    expect(servicesForNamespace(services, { name: 'a', labels: { team: 'x' } })).toEqual([
      { namespace: 'a', name: 'own' },
      { namespace: 'b', name: 'selects' },
    ]);
  });
});

describe('servicesForIngress', () => {
  it('maps an Ingress to the Services of its backends, once each', () => {
    const backend = (name: string) => ({ backend: { service: { name, port: { number: 80 } } } });
    expect(
      servicesForIngress({
        metadata: { namespace: 'a', name: 'i' },
        spec: { rules: [{ http: { paths: [backend('x'), backend('y'), backend('x')] } }, {}] },
      }),
    ).toEqual([
      { namespace: 'a', name: 'x' },
      { namespace: 'a', name: 'y' },
    ]);
  });
});

describe('servicePredicate', () => {
  const update = (oldObject: Service, object: Service) => servicePredicate({ type: 'update', oldObject, object });
  it('passes updates of the selector, ports and networking annotations only', () => {
    const base = svc('a', 's');
    expect(update(base, { ...base, metadata: { ...base.metadata, labels: { x: 'y' }, resourceVersion: '2' } })).toBe(
      false,
    );
    expect(update(base, svc('a', 's', { 'unrelated/annotation': 'x' }))).toBe(false);
    expect(update(base, svc('a', 's', { 'networking.resources.gardener.cloud/from-all-allowed-ports': '[]' }))).toBe(
      true,
    );
    expect(update(base, svc('a', 's', { 'networking.resources.gardener.cloud/from-world-to-ports': '[]' }))).toBe(true);
    expect(update(base, { ...base, spec: { ...base.spec, ports: [{ port: 81 }] } })).toBe(true);
    expect(servicePredicate({ type: 'create', object: base })).toBe(true);
  });
});
