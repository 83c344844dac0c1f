import { describe, expect, it } from 'vitest';
import { annotationKey, injectAnnotations, kindFromAnnotationKey } from './references.js';

describe('reference annotations', () => {
  it('are <prefix><kind>-<8 hex of sha256(name)>; the collector only reads the kind and the value', () => {
    // sha256("test-5678") starts with 4ed34879; the seed example's 82a3537f is illustrative and still counts.
    expect(annotationKey('configmap', 'test-5678')).toBe('reference.resources.gardener.cloud/configmap-4ed34879');
    expect(kindFromAnnotationKey('reference.resources.gardener.cloud/configmap-82a3537f')).toBe('configmap');
    expect(kindFromAnnotationKey('reference.resources.gardener.cloud/secret-1-2')).toBe('');
    expect(kindFromAnnotationKey('other/configmap-82a3537f')).toBe('');
  });

  it('injects into a Deployment and its pod template, replacing stale references', () => {
    const d = injectAnnotations({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { annotations: { keep: 'me', [annotationKey('secret', 'old')]: 'old' } },
      spec: {
        template: {
          spec: {
            containers: [
              {
                name: 'c',
                envFrom: [{ configMapRef: { name: 'cm1' } }],
                env: [{ name: 'X', valueFrom: { secretKeyRef: { name: 's1', key: 'k' } } }],
              },
            ],
            volumes: [
              { name: 'v', projected: { sources: [{ secret: { name: 's2' } }] } },
              { name: 'w', configMap: { name: 'cm2' } },
            ],
            imagePullSecrets: [{ name: 'pull' }],
          },
        },
      },
    });
    const expected = {
      [annotationKey('configmap', 'cm1')]: 'cm1',
      [annotationKey('configmap', 'cm2')]: 'cm2',
      [annotationKey('secret', 's1')]: 's1',
      [annotationKey('secret', 's2')]: 's2',
      [annotationKey('secret', 'pull')]: 'pull',
    };
    expect(d.metadata.annotations).toEqual({ keep: 'me', ...expected });
    expect((d.spec.template as any).metadata.annotations).toEqual(expected);
  });

  it('covers CronJob templates and ManagedResource secretRefs; refuses other kinds', () => {
    const cj: any = injectAnnotations({
      kind: 'CronJob',
      spec: { jobTemplate: { spec: { template: { spec: { volumes: [{ secret: { secretName: 's' } }] } } } } },
    });
    const key = annotationKey('secret', 's');
    expect(cj.metadata.annotations[key]).toBe('s');
    expect(cj.spec.jobTemplate.metadata.annotations[key]).toBe('s');
    expect(cj.spec.jobTemplate.spec.template.metadata.annotations[key]).toBe('s');
    const mr: any = injectAnnotations({ kind: 'ManagedResource', spec: { secretRefs: [{ name: 'mr-secret' }] } });
    expect(mr.metadata.annotations).toEqual({ [annotationKey('secret', 'mr-secret')]: 'mr-secret' });
    expect(() => injectAnnotations({ kind: 'Service' })).toThrow('unhandled object kind "Service"');
  });
});
