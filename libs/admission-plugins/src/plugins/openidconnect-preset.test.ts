import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { settingsv1alpha1 } from '@gardener-ts/api';
import { example, request } from '../../test/examples.js';
import { staticListers } from '../listers.js';
import { runChain, runMutating } from '../chain.js';
import type { KubeObject } from '../attributes.js';
import {
  choosePreset,
  ClusterOpenIDConnectPreset,
  oidcConfigFromPreset,
  OpenIDConnectPreset,
  type WeighedPreset,
} from './openidconnect-preset.js';
import { defaultPlugins } from './index.js';
import { managedIssuerConfigSecret } from './shoot-managed-issuer.js';

type Spec = settingsv1alpha1.OpenIDConnectPresetSpec;

const spec = (issuer: string, weight: number, shootSelector?: Spec['shootSelector']): Spec => ({
  server: { clientID: 'kubernetes', issuerURL: `https://${issuer}`, signingAlgs: ['RS256'], usernameClaim: 'sub' },
  weight,
  ...(shootSelector ? { shootSelector } : {}),
});

const preset = (name: string, s: Spec, namespace = 'garden-local'): KubeObject => ({
  apiVersion: 'settings.gardener.cloud/v1alpha1',
  kind: 'OpenIDConnectPreset',
  metadata: { name, namespace },
  spec: s,
});
const clusterPreset = (name: string, s: Spec, projectSelector?: Spec['shootSelector']): KubeObject => ({
  apiVersion: 'settings.gardener.cloud/v1alpha1',
  kind: 'ClusterOpenIDConnectPreset',
  metadata: { name },
  spec: { ...s, ...(projectSelector ? { projectSelector } : {}) },
});
const readyProject = (labels: Record<string, string> = {}) => {
  const p = example('local/project.yaml');
  p.metadata!.labels = { ...p.metadata!.labels, ...labels };
  p.status = { phase: 'Ready' };
  return p;
};
const issuerOf = (object: KubeObject | undefined) => object?.spec.kubernetes.kubeAPIServer?.oidcConfig?.issuerURL;

describe('choosing a preset', () => {
  it('takes the matching preset of highest weight, of equal weights the greatest name', () => {
    const presets: WeighedPreset[] = [
      { name: 'a', spec: spec('a', 10) },
      { name: 'b', spec: spec('b', 50, { matchLabels: { team: 'blue' } }) },
      { name: 'c', spec: spec('c', 20) },
      { name: 'd', spec: spec('d', 20) },
    ];
    expect(choosePreset(presets, {})?.name).toBe('d');
    expect(choosePreset(presets, { team: 'blue' })?.name).toBe('b');
    expect(choosePreset(presets.slice(0, 1), { team: 'red' })?.name).toBe('a');
    expect(choosePreset([], {})).toBeUndefined();
  });

  it('selects every Shoot with an absent shoot selector (the defaulted empty selector)', () => {
    expect(choosePreset([{ name: 'a', spec: spec('a', 1) }], undefined)?.name).toBe('a');
  });

  it('for cluster presets, needs the project selector to match the project labels too', () => {
    const presets: WeighedPreset[] = [
      { name: 'prod', spec: spec('prod', 90), projectSelector: { matchLabels: { stage: 'prod' } } },
      { name: 'any', spec: spec('any', 10) },
    ];
    expect(choosePreset(presets, {}, { stage: 'prod' })?.name).toBe('prod');
    expect(choosePreset(presets, {}, { stage: 'dev' })?.name).toBe('any');
  });

  it('does not depend on the order the presets are listed in', () => {
    const arbitrary = fc.uniqueArray(
      fc.record({
        name: fc.stringMatching(/^[a-z]{1,4}$/),
        weight: fc.integer({ min: 1, max: 5 }),
        blue: fc.boolean(),
      }),
      { selector: (p) => p.name, maxLength: 8 },
    );
    fc.assert(
      fc.property(arbitrary, fc.boolean(), (list, blueShoot) => {
        const presets: WeighedPreset[] = list.map((p) => ({
          name: p.name,
          spec: spec(p.name, p.weight, p.blue ? { matchLabels: { team: 'blue' } } : {}),
        }));
        const labels: Record<string, string> = blueShoot ? { team: 'blue' } : {};
        const chosen = choosePreset(presets, labels)?.name;
        expect(choosePreset([...presets].reverse(), labels)?.name).toBe(chosen);
        // The chosen one matches and no matching preset outweighs it.
        const matching = list.filter((p) => blueShoot || !p.blue);
        if (matching.length === 0) expect(chosen).toBeUndefined();
        else {
          const top = Math.max(...matching.map((p) => p.weight));
          expect(chosen).toBe(
            matching
              .filter((p) => p.weight === top)
              .map((p) => p.name)
              .sort()
              .at(-1),
          );
        }
      }),
    );
  });
});

describe('the OIDC configuration a preset gives', () => {
  it('copies the server settings and the client authentication, leaving unset fields out', () => {
    expect(
      oidcConfigFromPreset({
        ...spec('dex.example.com', 1),
        server: {
          ...spec('dex.example.com', 1).server,
          groupsClaim: 'groups',
          requiredClaims: { hd: 'example.com' },
        },
        client: { secret: 'shh', extraConfig: { 'extra-scopes': 'email' } },
      }),
    ).toEqual({
      clientID: 'kubernetes',
      groupsClaim: 'groups',
      issuerURL: 'https://dex.example.com',
      signingAlgs: ['RS256'],
      usernameClaim: 'sub',
      requiredClaims: { hd: 'example.com' },
      clientAuthentication: { secret: 'shh', extraConfig: { 'extra-scopes': 'email' } },
    });
  });
});

describe('OpenIDConnectPreset plugin', () => {
  const listers = staticListers([
    preset('low', spec('low.example.com', 10)),
    preset('high', spec('high.example.com', 90)),
    preset('elsewhere', spec('other.example.com', 100), 'garden-other'),
  ]);

  it('gives a new Shoot the OIDC configuration of the heaviest preset of its namespace', async () => {
    const result = await runMutating([OpenIDConnectPreset], request('CREATE', example('local/shoot.yaml')), listers);
    expect(result.allowed && issuerOf(result.object)).toBe('https://high.example.com');
  });

  it('leaves a Shoot with its own OIDC configuration, and updates, alone', async () => {
    const own = example('local/shoot.yaml');
    own.spec.kubernetes.kubeAPIServer = { oidcConfig: { issuerURL: 'https://mine.example.com' } };
    const result = await runMutating([OpenIDConnectPreset], request('CREATE', own), listers);
    expect(result).toEqual({ allowed: true, warnings: [] });
    const s = example('local/shoot.yaml');
    expect(await runMutating([OpenIDConnectPreset], request('UPDATE', s, s), listers)).toEqual({
      allowed: true,
      warnings: [],
    });
  });
});

describe('ClusterOpenIDConnectPreset plugin', () => {
  const presets = [
    clusterPreset('prod', spec('prod.example.com', 90), { matchLabels: { stage: 'prod' } }),
    clusterPreset('all', spec('all.example.com', 10)),
  ];

  it("gives a new Shoot the heaviest cluster preset matching its Ready project's labels", async () => {
    const prod = await runMutating(
      [ClusterOpenIDConnectPreset],
      request('CREATE', example('local/shoot.yaml')),
      staticListers([readyProject({ stage: 'prod' }), ...presets]),
    );
    expect(prod.allowed && issuerOf(prod.object)).toBe('https://prod.example.com');
    const dev = await runMutating(
      [ClusterOpenIDConnectPreset],
      request('CREATE', example('local/shoot.yaml')),
      staticListers([readyProject({ stage: 'dev' }), ...presets]),
    );
    expect(dev.allowed && issuerOf(dev.object)).toBe('https://all.example.com');
  });

  it('does nothing while the project is not Ready', async () => {
    const pending = readyProject();
    pending.status = { phase: 'Pending' };
    const result = await runMutating(
      [ClusterOpenIDConnectPreset],
      request('CREATE', example('local/shoot.yaml')),
      staticListers([pending, ...presets]),
    );
    expect(result).toEqual({ allowed: true, warnings: [] });
  });
});

describe('the presets in the full chain', () => {
  it('apply the namespaced preset before the cluster-wide one, and the Shoot passes validation', async () => {
    const result = await runChain(
      defaultPlugins,
      request('CREATE', example('local/shoot.yaml')),
      staticListers(
        [
          example('local/cloudprofile.yaml'),
          readyProject(),
          example('local/credentialsbinding.yaml'),
          { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'local', namespace: 'garden-local' } },
          managedIssuerConfigSecret('discovery.local.gardener.cloud'),
          preset('team', spec('team.example.com', 1)),
          clusterPreset('all', spec('all.example.com', 100)),
        ],
        async () => true,
      ),
    );
    if (!result.allowed) throw new Error(result.message);
    expect(issuerOf(result.object)).toBe('https://team.example.com');
  });
});
