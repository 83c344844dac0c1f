// kube-proxy of Gardener's provider-local example Shoot: what its ManagedResources carry into the shoot.
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { parseKubeconfig } from '../bootstrap/kubeconfig.js';
import { kubeProxyCentralObjects, renderKubeProxyManagedResources } from './kube-proxy.js';
import { exampleValues } from './testdata/fixtures.js';

const access = { server: 'https://127.0.0.1:31443', caPEM: 'CA', certPEM: 'CERT', keyPEM: 'KEY' };
// The objects a ManagedResource's Secret carries (one JSON object per key, base64).
const managedResourceObjects = (secret: object) =>
  Object.values((secret as { data: Record<string, string> }).data).map((v) =>
    JSON.parse(Buffer.from(v, 'base64').toString()),
  );
const byKind = (objects: { kind?: string }[], kind: string) => objects.filter((o) => o.kind === kind) as any[];

describe('kube-proxy of a shoot', () => {
  it("is a central ManagedResource and one per worker pool and version, as Gardener's", () => {
    const mrs = renderKubeProxyManagedResources(exampleValues(), access);
    expect(mrs.map((m) => m.managedResource.metadata?.name)).toEqual([
      'shoot-core-kube-proxy',
      'shoot-core-kube-proxy-local-v1.33.0',
    ]);
    for (const { secret, managedResource } of mrs) {
      expect((managedResource as any).spec.secretRefs).toEqual([{ name: secret.metadata?.name }]);
      expect(managedResource.metadata?.namespace).toBe('shoot--local--local');
      expect(managedResource.metadata?.labels).toEqual({ origin: 'gardener' });
    }
  });

  it("authenticates with its client certificate at the nodes' API server address, bound to system:node-proxier", () => {
    const { objects, secretName, configMapName } = kubeProxyCentralObjects(exampleValues(), access);
    const [secret] = byKind(objects, 'Secret');
    expect(secret.metadata.name).toBe(secretName);
    expect(secret.immutable).toBe(true);
    const kubeconfig = parseKubeconfig(Buffer.from(secret.data.kubeconfig, 'base64').toString());
    expect(kubeconfig.getCurrentCluster()?.server).toBe('https://127.0.0.1:31443');
    expect(Buffer.from(kubeconfig.getCurrentUser()!.certData!, 'base64').toString()).toBe('CERT');
    const [binding] = byKind(objects, 'ClusterRoleBinding');
    expect(binding.roleRef.name).toBe('system:node-proxier');
    expect(binding.subjects).toEqual([{ kind: 'ServiceAccount', name: 'kube-proxy', namespace: 'kube-system' }]);
    const [configMap] = byKind(objects, 'ConfigMap');
    expect(configMap.metadata.name).toBe(configMapName);
    const config = parse(configMap.data['config.yaml']);
    expect(config).toMatchObject({
      kind: 'KubeProxyConfiguration',
      clientConnection: { kubeconfig: '/var/lib/kube-proxy-kubeconfig/kubeconfig' },
      mode: 'iptables',
    });
  });

  it("runs on the pool's nodes of its Kubernetes version, host network, with the node's /var/lib/kube-proxy", () => {
    const [, pool] = renderKubeProxyManagedResources(exampleValues(), access);
    const [daemonSet] = byKind(managedResourceObjects(pool.secret), 'DaemonSet');
    expect(daemonSet.metadata.name).toBe('kube-proxy-local-v1.33.0');
    const spec = daemonSet.spec.template.spec;
    expect(spec.nodeSelector).toEqual({
      'worker.gardener.cloud/pool': 'local',
      'worker.gardener.cloud/kubernetes-version': '1.33.0',
    });
    expect(spec.hostNetwork).toBe(true);
    expect(spec.containers.map((c: any) => c.image)).toEqual(['registry.k8s.io/kube-proxy:v1.33.0']);
    expect(spec.containers[0].command).toEqual([
      '/usr/local/bin/kube-proxy',
      '--config=/var/lib/kube-proxy-config/config.yaml',
      '--v=2',
    ]);
    expect(spec.volumes).toContainEqual({
      name: 'kube-proxy-dir',
      hostPath: { path: '/var/lib/kube-proxy', type: 'DirectoryOrCreate' },
    });
  });

  it('changes its Secret and ConfigMap names with their content, so that DaemonSets roll', () => {
    const a = kubeProxyCentralObjects(exampleValues(), access);
    const b = kubeProxyCentralObjects(exampleValues(), { ...access, server: 'https://127.0.0.1:31444' });
    const c = kubeProxyCentralObjects(
      exampleValues((s) => (s.spec.kubernetes.kubeProxy = { mode: 'IPVS' })),
      access,
    );
    expect(b.secretName).not.toBe(a.secretName);
    expect(b.configMapName).toBe(a.configMapName);
    expect(c.configMapName).not.toBe(a.configMapName);
  });
});
