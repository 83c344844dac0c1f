// The shared gardenlet deployment pieces: bootstrap token ids, descriptions, Secrets and their validity, the bootstrap
// kubeconfig, the chart values, and the real helm rendering of deploy/charts/gardenlet with a replaced seedConfig.
import { join } from 'node:path';
import { parse } from 'yaml';
import { afterAll, describe, expect, it } from 'vitest';
import { workspaceRoot } from '@gardener-ts/testing';
import {
  bootstrapKubeconfig,
  bootstrapTokenDescription,
  bootstrapTokenID,
  bootstrapTokenSecret,
  gardenletChartRenderer,
  gardenletChartValues,
  kubeconfigCluster,
  newBootstrapToken,
  replacingDefaults,
  validBootstrapToken,
} from './gardenlet-chart.js';
import { HelmRenderer } from './helm.js';

const decode = (data: Record<string, string>) =>
  Object.fromEntries(Object.entries(data).map(([k, v]) => [k, Buffer.from(v, 'base64').toString()]));

describe('bootstrap tokens', () => {
  it("derives the token id from the object's namespace and name (Gardener's TokenID)", () => {
    // sha256("garden--infra") starts with these six hex digits.
    expect(bootstrapTokenID({ namespace: 'garden', name: 'infra' })).toBe('37ac58');
    expect(bootstrapTokenID({ namespace: 'garden', name: 'infra' })).not.toBe(bootstrapTokenID({ name: 'infra' }));
    expect(bootstrapTokenID({ name: 'garden--infra' })).toBe(bootstrapTokenID({ namespace: 'garden', name: 'infra' }));
  });

  it("describes the token as Gardener's controller-manager reads it back", () => {
    expect(bootstrapTokenDescription('managed seed', 'garden', 'infra')).toBe(
      'A bootstrap token for the Gardenlet for managed seed garden/infra.',
    );
    expect(bootstrapTokenDescription('seed', undefined, 'local')).toBe(
      'A bootstrap token for the Gardenlet for seed local.',
    );
  });

  it('renders the token Secret with the description, expiration and both usages', () => {
    const secret = bootstrapTokenSecret(
      { id: 'abc123', secret: '0123456789abcdef' },
      { description: 'd', expiration: new Date('2026-11-30T12:00:00.123Z') },
    );
    expect(secret.metadata).toEqual({ name: 'bootstrap-token-abc123', namespace: 'kube-system' });
    expect(secret.type).toBe('bootstrap.kubernetes.io/token');
    expect(decode(secret.data)).toEqual({
      description: 'd',
      'token-id': 'abc123',
      'token-secret': '0123456789abcdef',
      expiration: '2026-11-30T12:00:00Z',
      'usage-bootstrap-authentication': 'true',
      'usage-bootstrap-signing': 'true',
    });
  });

  it('reuses a token only while it is valid and well-formed', () => {
    const data = (secret: string, expiration: string) =>
      bootstrapTokenSecret({ id: 'abc123', secret }, { description: 'd', expiration: new Date(expiration) }).data;
    const now = new Date('2026-11-30T12:00:00Z');
    expect(validBootstrapToken(data('0123456789abcdef', '2026-11-30T13:00:00Z'), now)).toEqual({
      id: 'abc123',
      secret: '0123456789abcdef',
    });
    expect(validBootstrapToken(data('0123456789abcdef', '2026-11-30T11:00:00Z'), now)).toBeUndefined();
    expect(validBootstrapToken(data('TOO-SHORT', '2026-11-30T13:00:00Z'), now)).toBeUndefined();
    expect(validBootstrapToken(undefined, now)).toBeUndefined();
  });

  it('generates tokens of the bootstrap token alphabet, accepted back as valid', () => {
    for (let i = 0; i < 50; i++) {
      const token = newBootstrapToken();
      expect(token.id).toMatch(/^[a-z0-9]{6}$/);
      expect(token.secret).toMatch(/^[a-z0-9]{16}$/);
    }
    const token = newBootstrapToken('abc123');
    const { data } = bootstrapTokenSecret(token, { description: 'd', expiration: new Date('2026-12-01T00:00:00Z') });
    expect(validBootstrapToken(data, new Date('2026-11-30T00:00:00Z'))).toEqual(token);
  });

  it('writes a bootstrap kubeconfig authenticating with the token', () => {
    const kc = parse(
      bootstrapKubeconfig(
        kubeconfigCluster({ server: 'https://garden:6443', caData: 'Q0E=' }),
        'abc123.0123456789abcdef',
      ),
    );
    expect(kc.clusters).toEqual([
      { name: 'garden', cluster: { server: 'https://garden:6443', 'certificate-authority-data': 'Q0E=' } },
    ]);
    expect(kc.users).toEqual([{ name: 'gardenlet-bootstrap', user: { token: 'abc123.0123456789abcdef' } }]);
    expect(kc['current-context']).toBe('gardenlet-bootstrap');
  });
});

describe('chart values', () => {
  it('puts the configuration under config and the bootstrap kubeconfig where the chart reads it', () => {
    expect(gardenletChartValues({ config: { a: 1 }, bootstrapKubeconfig: 'kc', values: { replicas: 2 } })).toEqual({
      replicas: 2,
      bootstrapKubeconfig: { kubeconfig: 'kc' },
      config: { a: 1 },
    });
    expect(gardenletChartValues({ config: { a: 1 } })).toEqual({ config: { a: 1 } });
  });

  it('nulls the chart defaults at a replaced path that the values leave out, recursively', () => {
    const defaults = {
      config: { seedConfig: { metadata: { name: 'local' }, spec: { backup: {}, dns: { a: 1 }, ingress: {} } } },
    };
    const values = {
      config: { seedConfig: { metadata: { name: 'infra' }, spec: { ingress: { domain: 'x' } } }, other: 1 },
    };
    expect(replacingDefaults(defaults, values, ['config', 'seedConfig'])).toEqual({
      config: {
        seedConfig: { metadata: { name: 'infra' }, spec: { backup: null, dns: null, ingress: { domain: 'x' } } },
        other: 1,
      },
    });
    // Nothing to replace at a path the values do not set.
    expect(replacingDefaults(defaults, { config: {} }, ['config', 'seedConfig'])).toEqual({ config: {} });
  });
});

describe('GardenletChartRenderer', () => {
  const root = workspaceRoot();
  const helm = new HelmRenderer({
    helmBinary: join(root, 'tools/k8s-binaries/vendor/helm'),
    chartsDir: join(root, 'deploy/charts'),
  });
  afterAll(() => helm.close());

  it('renders deploy/charts/gardenlet with the real helm; a replaced seedConfig keeps nothing of the local seed', async () => {
    const renderer = gardenletChartRenderer(helm, join(root, 'deploy/charts'));
    const objects = await renderer.render(
      gardenletChartValues({
        config: {
          seedConfig: { metadata: { name: 'infra' }, spec: { provider: { type: 'local', region: 'r' } } },
        },
        bootstrapKubeconfig: 'apiVersion: v1\nkind: Config\n',
      }),
      [['config', 'seedConfig']],
    );
    const names = objects.map((o) => `${o.kind}/${o.metadata?.namespace ?? ''}/${o.metadata?.name}`);
    expect(names).toEqual(
      expect.arrayContaining([
        'Deployment/garden/gardenlet',
        'ConfigMap/garden/gardenlet-config',
        'Secret/garden/gardenlet-kubeconfig-bootstrap',
      ]),
    );
    const configMap = objects.find((o) => o.kind === 'ConfigMap') as unknown as { data: Record<string, string> };
    const config = parse(configMap.data['config.yaml']!);
    expect(config.seedConfig).toEqual({
      metadata: { name: 'infra' },
      spec: { provider: { type: 'local', region: 'r' } },
    });
    // The rest of the chart's configuration is merged as usual.
    expect(config.gardenClientConnection.kubeconfigSecret).toEqual({
      name: 'gardenlet-kubeconfig',
      namespace: 'garden',
    });
  });
});
