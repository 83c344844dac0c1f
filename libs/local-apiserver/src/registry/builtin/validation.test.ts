import { describe, expect, it } from 'vitest';
import { VALIDATORS } from './validation.js';

const deployment = (
  labels: Record<string, string>,
  selector: Record<string, string>,
  containers: unknown[] = [{ name: 'web', image: 'nginx' }],
) => ({
  spec: {
    selector: { matchLabels: selector },
    template: { metadata: { labels }, spec: { containers, restartPolicy: 'Always' } },
  },
});

const fields = (problems: { field: string }[]) => problems.map((p) => p.field);

describe('validation of built-in kinds', () => {
  it('accepts a well-formed Deployment', () => {
    expect(VALIDATORS['apps/deployments'](deployment({ app: 'web' }, { app: 'web' }), undefined)).toEqual([]);
  });

  it("lets a StatefulSet's containers mount its volumeClaimTemplates, and only them besides its volumes", () => {
    const mounting = (name: string) => [
      { name: 'etcd', image: 'etcd', volumeMounts: [{ name, mountPath: '/var/etcd/data' }] },
    ];
    const sts = (name: string) => ({
      spec: {
        ...deployment({ app: 'etcd' }, { app: 'etcd' }, mounting(name)).spec,
        volumeClaimTemplates: [{ metadata: { name: 'main-etcd' }, spec: { accessModes: ['ReadWriteOnce'] } }],
      },
    });
    expect(VALIDATORS['apps/statefulsets'](sts('main-etcd'), undefined)).toEqual([]);
    expect(fields(VALIDATORS['apps/statefulsets'](sts('other'), undefined))).toEqual([
      'spec.template.spec.containers[0].volumeMounts[0].name',
    ]);
  });

  it('refuses a selector that does not match the template labels, with kube wording', () => {
    const [problem] = VALIDATORS['apps/deployments'](deployment({ app: 'web' }, { app: 'db' }), undefined);
    expect(problem).toEqual({
      field: 'spec.template.metadata.labels',
      reason: 'FieldValueInvalid',
      message: 'Invalid value: {"app":"web"}: `selector` does not match template `labels`',
    });
  });

  it('keeps the selector immutable', () => {
    const old = deployment({ app: 'web', v: '1' }, { app: 'web' });
    expect(
      fields(VALIDATORS['apps/deployments'](deployment({ app: 'web', v: '1' }, { app: 'web', v: '1' }), old)),
    ).toEqual(['spec.selector']);
  });

  it('requires containers with names and images, without duplicates', () => {
    const problems = VALIDATORS['apps/deployments'](
      deployment({ a: 'b' }, { a: 'b' }, [{ name: 'x' }, { name: 'x', image: 'i' }, { image: 'i' }]),
      undefined,
    );
    expect(fields(problems)).toEqual([
      'spec.template.spec.containers[0].image',
      'spec.template.spec.containers[1].name',
      'spec.template.spec.containers[2].name',
    ]);
    expect(fields(VALIDATORS['/pods']({ spec: { containers: [], restartPolicy: 'Always' } }, undefined))).toEqual([
      'spec.containers',
    ]);
  });

  it('allows only OnFailure or Never for Job pods', () => {
    const job = { spec: { template: { spec: { containers: [{ name: 'c', image: 'i' }], restartPolicy: 'Always' } } } };
    expect(VALIDATORS['batch/jobs'](job, undefined)[0]).toMatchObject({
      field: 'spec.template.spec.restartPolicy',
      reason: 'FieldValueNotSupported',
    });
  });

  it('checks config keys of ConfigMaps and Secrets, and Service ports', () => {
    expect(fields(VALIDATORS['/configmaps']({ data: { 'ok.key': '1', 'bad key': '2' } }, undefined))).toEqual([
      'data[bad key]',
    ]);
    expect(fields(VALIDATORS['/services']({ spec: { type: 'ClusterIP', ports: [] } }, undefined))).toEqual([
      'spec.ports',
    ]);
    expect(
      fields(
        VALIDATORS['/services'](
          { spec: { type: 'ClusterIP', ports: [{ port: 80 }, { port: 0, name: 'b' }] } },
          undefined,
        ),
      ),
    ).toEqual(['spec.ports[0].name', 'spec.ports[1].port']);
    expect(VALIDATORS['/services']({ spec: { clusterIP: 'None' } }, undefined)).toEqual([]);
  });

  it('checks label keys in pod templates, selectors and NetworkPolicy peers of every kind that has them', () => {
    const bad = 'x/' + 'n'.repeat(64);
    const template = {
      metadata: { labels: { app: 'a', [bad]: '1' } },
      spec: { containers: [{ name: 'c', image: 'i' }] },
    };
    const workloadSpec = { selector: { matchLabels: { app: 'a' } }, template };
    for (const kind of ['apps/deployments', 'apps/replicasets', 'apps/statefulsets', 'apps/daemonsets']) {
      const spec = { ...workloadSpec, template: { ...template, spec: { ...template.spec, restartPolicy: 'Always' } } };
      expect(fields(VALIDATORS[kind]({ spec }, undefined)), kind).toEqual(['spec.template.metadata.labels']);
    }
    const jobTemplate = { ...template, spec: { ...template.spec, restartPolicy: 'Never' } };
    expect(fields(VALIDATORS['batch/jobs']({ spec: { template: jobTemplate } }, undefined))).toEqual([
      'spec.template.metadata.labels',
    ]);
    expect(
      fields(
        VALIDATORS['batch/cronjobs'](
          { spec: { schedule: '* * * * *', jobTemplate: { spec: { template: jobTemplate } } } },
          undefined,
        ),
      ),
    ).toEqual(['spec.jobTemplate.spec.template.metadata.labels']);
    expect(
      fields(VALIDATORS['/services']({ spec: { ports: [{ port: 80 }], selector: { [bad]: 'x' } } }, undefined)),
    ).toEqual(['spec.selector']);
    expect(
      fields(
        VALIDATORS['policy/poddisruptionbudgets']({ spec: { selector: { matchLabels: { [bad]: 'x' } } } }, undefined),
      ),
    ).toEqual(['spec.selector.matchLabels']);
    expect(
      fields(
        VALIDATORS['networking.k8s.io/networkpolicies'](
          { spec: { podSelector: {}, ingress: [{ from: [{ podSelector: { matchLabels: { [bad]: 'allowed' } } }] }] } },
          undefined,
        ),
      ),
    ).toEqual(['spec.ingress[0].from[0].podSelector.matchLabels']);
  });

  it('keeps the content of immutable ConfigMaps and Secrets, with kube paths and messages', () => {
    const forbidden = (field: string) => ({
      field,
      reason: 'FieldValueForbidden',
      message: 'Forbidden: field is immutable when `immutable` is set',
    });
    const cm = { immutable: true, data: { a: '1' } };
    expect(VALIDATORS['/configmaps']({ ...cm, metadata: { labels: { x: 'y' } } }, cm)).toEqual([]);
    expect(VALIDATORS['/configmaps']({ data: { a: '2' }, binaryData: { b: 'AA==' } }, cm)).toEqual([
      forbidden('immutable'),
      forbidden('data'),
      forbidden('binaryData'),
    ]);
    // An absent map and an empty one hold the same (no) content.
    expect(VALIDATORS['/configmaps']({ immutable: true, data: {} }, { immutable: true })).toEqual([]);
    // Not immutable before: anything may change, including turning it on.
    expect(VALIDATORS['/configmaps']({ immutable: true, data: { a: '2' } }, { data: { a: '1' } })).toEqual([]);
    const secret = { type: 'Opaque', immutable: true, data: { p: 'YQ==' } };
    expect(VALIDATORS['/secrets']({ ...secret, data: { p: 'Yg==' } }, secret)).toEqual([forbidden('data')]);
    expect(VALIDATORS['/secrets']({ ...secret, immutable: false }, secret)).toEqual([forbidden('immutable')]);
  });
});
