import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { createLogger } from '@gardener-ts/logging';
import type { OperatingSystemConfigObject } from '@gardener-ts/extensions';
import type { Workload } from '@gardener-ts/controller-runtime';
import { InjectedByLabel, KubeletConfigPath, LocalEnsurer } from './ensurer.js';

const kubeletConfig =
  'apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\nfailSwapOn: true\nmaxPods: 110\n';
const ctx = { log: createLogger({ name: 'test', level: 'error' }), namespace: 'shoot--local--local' };

function osc(encoding: string, data: string): OperatingSystemConfigObject {
  return {
    apiVersion: 'extensions.gardener.cloud/v1alpha1',
    kind: 'OperatingSystemConfig',
    metadata: { name: 'worker-original', namespace: ctx.namespace },
    spec: {
      type: 'local',
      purpose: 'reconcile',
      files: [
        { path: '/etc/motd', content: { inline: { encoding: '', data: 'hi' } } },
        { path: KubeletConfigPath, permissions: 0o644, content: { inline: { encoding, data } } },
      ],
    },
  } as OperatingSystemConfigObject;
}

describe('LocalEnsurer.ensureOperatingSystemConfig', () => {
  it('sets failSwapOn=false in a base64 kubelet configuration and keeps everything else', () => {
    const obj = osc('b64', Buffer.from(kubeletConfig).toString('base64'));
    new LocalEnsurer().ensureOperatingSystemConfig(ctx, obj);
    const file = obj.spec.files!.find((f) => f.path === KubeletConfigPath)!;
    expect(file.content.inline!.encoding).toBe('b64');
    expect(parse(Buffer.from(file.content.inline!.data, 'base64').toString())).toEqual({
      apiVersion: 'kubelet.config.k8s.io/v1beta1',
      kind: 'KubeletConfiguration',
      failSwapOn: false,
      maxPods: 110,
    });
    expect(obj.spec.files![0]).toEqual({ path: '/etc/motd', content: { inline: { encoding: '', data: 'hi' } } });
  });

  it('handles plain text and leaves OSCs without the kubelet configuration alone', () => {
    const plain = osc('', kubeletConfig);
    new LocalEnsurer().ensureOperatingSystemConfig(ctx, plain);
    expect(parse(plain.spec.files![1]!.content.inline!.data).failSwapOn).toBe(false);
    const without = osc('', '');
    without.spec.files = [without.spec.files![0]!];
    const before = structuredClone(without);
    new LocalEnsurer().ensureOperatingSystemConfig(ctx, without);
    expect(without).toEqual(before);
  });
});

describe('LocalEnsurer.ensureKubeSchedulerDeployment', () => {
  const deployment = (labels?: Record<string, string>): Workload => ({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'kube-scheduler', namespace: ctx.namespace, labels: { app: 'kubernetes' } },
    spec: {
      replicas: 1,
      selector: { matchLabels: { app: 'kubernetes', role: 'scheduler' } },
      template: { ...(labels ? { metadata: { labels } } : {}), spec: { containers: [{ name: 'kube-scheduler' }] } },
    },
  });

  it("labels the Pod template injected-by=provider-local and keeps the template's other labels", () => {
    const obj = deployment({ app: 'kubernetes', role: 'scheduler' });
    new LocalEnsurer().ensureKubeSchedulerDeployment(ctx, obj);
    expect(obj.spec!.template!.metadata!.labels).toEqual({
      app: 'kubernetes',
      role: 'scheduler',
      [InjectedByLabel.key]: InjectedByLabel.value,
    });
    expect(obj.metadata!.labels).toEqual({ app: 'kubernetes' });
    expect(obj.spec!.template!.spec).toEqual({ containers: [{ name: 'kube-scheduler' }] });
  });

  it('adds the label to a template without labels, and changes nothing the second time', () => {
    const obj = deployment();
    new LocalEnsurer().ensureKubeSchedulerDeployment(ctx, obj);
    expect(obj.spec!.template!.metadata!.labels).toEqual({ 'injected-by': 'provider-local' });
    const once = structuredClone(obj);
    new LocalEnsurer().ensureKubeSchedulerDeployment(ctx, obj);
    expect(obj).toEqual(once);
  });
});
