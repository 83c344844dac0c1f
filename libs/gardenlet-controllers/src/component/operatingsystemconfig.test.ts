// The OperatingSystemConfigs of Gardener's provider-local example Shoot as the node side consumes them: the provision
// OSC starts gardener-node-agent with its configuration and the bootstrap token, the reconcile OSC carries the kubelet
// unit, configuration and CA (docs/apps/node-agent.md, "What the gardenlet's OperatingSystemConfig must contain"), and
// the Secret and RBAC node-agent reads in the shoot.
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { nodeAgentConfigSpec, parseComponentConfig } from '@gardener-ts/component-config';
import type { extensionsv1alpha1 } from '@gardener-ts/api';
import { renderOperatingSystemConfigs } from './extensions.js';
import { nodeAgentOSCSecretName, renderNodeAgentOSCSecret, renderNodeAgentRBAC } from './operatingsystemconfig.js';
import { exampleValues } from './testdata/fixtures.js';

type OSC = extensionsv1alpha1.OperatingSystemConfig;
const caBundle = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';
const options = {
  now: '2026-11-25T01:00:00Z',
  apiServerURL: 'https://127.0.0.1:31443',
  caBundle,
};
const content = (osc: OSC, path: string): string => {
  const file = osc.spec.files?.find((f) => f.path === path);
  if (!file?.content.inline) throw new Error(`no inline file ${path}`);
  const { encoding, data } = file.content.inline;
  return encoding === 'b64' ? Buffer.from(data, 'base64').toString('utf8') : data;
};
const unit = (osc: OSC, name: string) => osc.spec.units?.find((u) => u.name === name);

describe('the OperatingSystemConfigs of a worker pool', () => {
  const values = exampleValues();
  const [provision, original] = renderOperatingSystemConfigs(values, options) as [OSC, OSC];

  it('provision: gardener-node-agent started with its configuration, the bootstrap token and machine name placeholders', () => {
    expect(unit(provision, 'gardener-node-agent.service')).toMatchObject({ command: 'start', enable: true });
    expect(unit(provision, 'gardener-node-agent.service')?.content).toContain(
      'ExecStart=/opt/bin/gardener-node-agent --config=/var/lib/gardener-node-agent/config.yaml',
    );
    const token = provision.spec.files?.find(
      (f) => f.path === '/var/lib/gardener-node-agent/credentials/bootstrap-token',
    );
    expect(token).toMatchObject({ permissions: 0o640, content: { transmitUnencoded: true } });
    expect(content(provision, '/var/lib/gardener-node-agent/credentials/bootstrap-token')).toBe('<<BOOTSTRAP_TOKEN>>');
    expect(content(provision, '/var/lib/gardener-node-agent/machine-name')).toBe('<<MACHINE_NAME>>');

    // The configuration is a valid NodeAgentConfiguration naming the API server, its CA and the pool's OSC Secret.
    const text = content(provision, '/var/lib/gardener-node-agent/config.yaml');
    const { config } = parseComponentConfig(nodeAgentConfigSpec, text, 'config.yaml');
    expect(config.apiServer).toEqual({
      server: options.apiServerURL,
      caBundle: Buffer.from(caBundle).toString('base64'),
    });
    const pool = values.shoot.spec.provider.workers![0]!;
    expect(config.controllers.operatingSystemConfig).toMatchObject({
      secretName: nodeAgentOSCSecretName(values, pool),
      kubernetesVersion: '1.33.0',
    });
    expect(config.clientConnection.kubeconfig).toBe('');
  });

  it("reconcile: Gardener's kubelet unit with its configuration and CA, and node-agent itself", () => {
    const kubelet = unit(original, 'kubelet.service')!;
    expect(kubelet).toMatchObject({
      command: 'start',
      enable: true,
      filePaths: ['/var/lib/kubelet/config/kubelet', '/var/lib/kubelet/ca.crt'],
    });
    const lines = kubelet.content!.split('\n');
    for (const line of [
      'EnvironmentFile=/etc/environment',
      'EnvironmentFile=-/var/lib/kubelet/extra_args',
      'Restart=always',
      'ExecStart=/opt/bin/kubelet \\',
      '    --bootstrap-kubeconfig=/var/lib/kubelet/kubeconfig-bootstrap \\',
      '    --config=/var/lib/kubelet/config/kubelet \\',
      '    --kubeconfig=/var/lib/kubelet/kubeconfig-real \\',
      '    --v=2 $KUBELET_EXTRA_ARGS',
    ]) {
      expect(lines).toContain(line);
    }
    const labels = lines.find((l) => l.includes('--node-labels='))!;
    expect(labels).toContain('worker.gardener.cloud/pool=local');
    expect(labels).toContain('worker.gardener.cloud/kubernetes-version=1.33.0');

    const config = parse(content(original, '/var/lib/kubelet/config/kubelet')) as Record<string, unknown>;
    expect(config).toMatchObject({
      kind: 'KubeletConfiguration',
      authentication: { x509: { clientCAFile: '/var/lib/kubelet/ca.crt' } },
      clusterDNS: ['10.4.0.10'],
      serverTLSBootstrap: true,
      seccompDefault: true,
      registryPullQPS: 10,
    });
    // Without the kubelet CA the cluster CA bundle; with it (as the flow renders), the kubelets trust the ca-kubelet
    // certificate that signs the kube-apiserver's client certificate for logs, exec and port-forward (Gardener's).
    expect(content(original, '/var/lib/kubelet/ca.crt')).toBe(caBundle);
    const kubeletCA = '-----BEGIN CERTIFICATE-----\nKUBELETCA\n-----END CERTIFICATE-----\n';
    const [, withKubeletCA] = renderOperatingSystemConfigs(exampleValues(), {
      ...options,
      kubeletCACertificate: kubeletCA,
    }) as [OSC, OSC];
    expect(content(withKubeletCA, '/var/lib/kubelet/ca.crt')).toBe(kubeletCA);
    expect(unit(original, 'gardener-node-agent.service')?.filePaths).toEqual([
      '/var/lib/gardener-node-agent/config.yaml',
    ]);
    // The bootstrap token is only in the machine's user data.
    expect(original.spec.files?.some((f) => f.path.includes('bootstrap-token'))).toBe(false);
  });

  it("node-agent's Secret carries the OSC's units and files with their checksum", () => {
    const secret = renderNodeAgentOSCSecret(original, 'gardener-node-agent-local-abcde', 'local') as {
      metadata: { namespace: string; annotations: Record<string, string>; labels: Record<string, string> };
      data: Record<string, string>;
    };
    const raw = Buffer.from(secret.data['osc.yaml']!, 'base64').toString('utf8');
    expect(secret.metadata.namespace).toBe('kube-system');
    expect(secret.metadata.annotations['checksum/data-script']).toBe(createHash('sha256').update(raw).digest('hex'));
    expect(secret.metadata.labels['worker.gardener.cloud/pool']).toBe('local');
    const osc = parse(raw) as OSC;
    expect(osc.spec.units?.map((u) => u.name)).toEqual([
      'kubelet.service',
      'gardener-node-agent.service',
      'sshd.service',
    ]);
    expect(osc.spec.files).toEqual(original.spec.files);
  });

  it('the RBAC of the TLS bootstrap and of node-agents', () => {
    const objects = renderNodeAgentRBAC(['gardener-node-agent-local-abcde']) as {
      kind: string;
      metadata: { name: string };
      subjects?: { name: string }[];
      rules?: { resourceNames?: string[] }[];
    }[];
    const byName = (kind: string, name: string) => objects.find((o) => o.kind === kind && o.metadata.name === name)!;
    expect(byName('ClusterRoleBinding', 'system:node-bootstrapper').subjects).toEqual([
      { apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: 'system:bootstrappers' },
    ]);
    expect(byName('ClusterRoleBinding', 'gardener-node-agent').subjects?.map((s) => s.name)).toContain(
      'gardener.cloud:node-agents',
    );
    expect(byName('Role', 'gardener-node-agent').rules?.[0]?.resourceNames).toContain(
      'gardener-node-agent-local-abcde',
    );
  });
});

describe('names', () => {
  it("a pool's OSC Secret name changes with its Kubernetes version only", () => {
    fc.assert(
      fc.property(fc.constantFrom('1.32.1', '1.33.0', '1.34.2'), fc.constantFrom('1.32.1', '1.33.0'), (a, b) => {
        const values = exampleValues();
        const pool = (version: string) => ({ ...values.shoot.spec.provider.workers![0]!, kubernetes: { version } });
        const nameA = nodeAgentOSCSecretName(values, pool(a));
        expect(nameA).toMatch(/^gardener-node-agent-local-[0-9a-f]{5}$/);
        expect(nameA === nodeAgentOSCSecretName(values, pool(b))).toBe(a === b);
      }),
    );
  });
});
