import { describe, expect, it } from 'vitest';
import { parseKubeSchedulerConfiguration } from './scheduler-config.js';

describe('parseKubeSchedulerConfiguration', () => {
  it("reads Gardener's shoot scheduler configuration: its kubeconfig and leader election on kube's Lease", () => {
    // As the gardenlet renders it for a shoot (pkg/component/kubernetes/scheduler).
    const { config, schedulerNames, ignored } = parseKubeSchedulerConfiguration(`
apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
clientConnection:
  kubeconfig: /var/run/secrets/gardener.cloud/shoot/generic-kubeconfig/kubeconfig
leaderElection:
  leaderElect: true
`);
    expect(config.clientConnection.kubeconfig).toBe(
      '/var/run/secrets/gardener.cloud/shoot/generic-kubeconfig/kubeconfig',
    );
    expect(config.leaderElection).toMatchObject({
      leaderElect: true,
      resourceName: 'kube-scheduler',
      resourceNamespace: 'kube-system',
      leaseDuration: '15s',
    });
    expect(schedulerNames).toEqual(['default-scheduler']);
    expect(ignored).toEqual([]);
  });

  it("serves Gardener's bin-packing profile by name and reports its scoring as not honoured", () => {
    const { schedulerNames, ignored } = parseKubeSchedulerConfiguration(`
apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
clientConnection:
  kubeconfig: /k
profiles:
- schedulerName: bin-packing-scheduler
  pluginConfig:
  - name: NodeResourcesFit
    args: { scoringStrategy: { type: MostAllocated } }
`);
    expect(schedulerNames).toEqual(['bin-packing-scheduler']);
    expect(ignored).toEqual(['profiles[0].pluginConfig']);
  });

  it('refuses another kind or version and bad durations, naming the field', () => {
    expect(() =>
      parseKubeSchedulerConfiguration(
        'apiVersion: kubescheduler.config.k8s.io/v1beta2\nkind: KubeSchedulerConfiguration\n',
        'c.yaml',
      ),
    ).toThrow(
      /invalid configuration c.yaml:\n {2}apiVersion: Unsupported value: "kubescheduler.config.k8s.io\/v1beta2"/,
    );
    expect(() =>
      parseKubeSchedulerConfiguration(
        'apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nleaderElection: { leaseDuration: soon }\n',
      ),
    ).toThrow(/leaderElection.leaseDuration: invalid duration/);
  });
});
