import { describe, expect, it } from 'vitest';
import { parseKubeProxyConfiguration } from './proxy-config.js';

describe('parseKubeProxyConfiguration', () => {
  it("reads Gardener's shoot kube-proxy configuration: its kubeconfig; mode, conntrack and CIDR are not honoured", () => {
    // As the gardenlet renders it for a shoot (pkg/component/kubernetes/proxy).
    const settings = parseKubeProxyConfiguration(`
apiVersion: kubeproxy.config.k8s.io/v1alpha1
kind: KubeProxyConfiguration
clientConnection:
  kubeconfig: /var/lib/kube-proxy-kubeconfig/kubeconfig
clusterCIDR: 10.3.0.0/16
conntrack:
  maxPerCore: 524288
metricsBindAddress: 0.0.0.0:10249
mode: iptables
`);
    expect(settings.kubeconfig).toBe('/var/lib/kube-proxy-kubeconfig/kubeconfig');
    expect(settings.healthzBindAddress).toBe('0.0.0.0:10256');
    expect(settings.ignored).toEqual(expect.arrayContaining(['clusterCIDR', 'mode']));
  });

  it('refuses a file of another kind, naming it', () => {
    expect(() =>
      parseKubeProxyConfiguration(
        'apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n',
        'c.yaml',
      ),
    ).toThrow(/c\.yaml/);
  });
});
