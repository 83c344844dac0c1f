import { describe, expect, it } from 'vitest';
import { example, request } from '../../test/examples.js';
import { staticListers } from '../listers.js';
import { runChain } from '../chain.js';
import { BastionValidator } from './bastion.js';
import { ControllerRegistrationResources } from './controller-registration-resources.js';
import { ExtensionValidator } from './extension-validator.js';
import { FinalizerRemoval } from './finalizer-removal.js';
import { resourceSizeValidator } from './resource-size.js';
import { ShootTolerationRestriction } from './shoot-toleration-restriction.js';
import {
  ShootExposureClass,
  ShootNodeLocalDNSEnabledByDefault,
  ShootVPAEnabledByDefault,
} from './shoot-defaults-by-plugin.js';
import { selectPlugins } from './index.js';
import type { KubeObject } from '../attributes.js';

describe('ControllerRegistrationResources', () => {
  it('refuses a second primary registration for the same kind and type', async () => {
    const first = example('local/controllerregistration.yaml');
    const second: KubeObject = { ...structuredClone(first), metadata: { name: 'provider-local-2' } };
    const result = await runChain([ControllerRegistrationResources], request('CREATE', second), staticListers([first]));
    expect(!result.allowed && result.message).toContain(
      'spec.resources[0]: Forbidden: another ControllerRegistration "provider-local" is already primarily responsible for kind "BackupBucket" and type "local"',
    );
    second.spec.resources = second.spec.resources.map((r: object) => ({ ...r, primary: false }));
    expect(
      (await runChain([ControllerRegistrationResources], request('CREATE', second), staticListers([first]))).allowed,
    ).toBe(true);
    expect(
      (await runChain([ControllerRegistrationResources], request('UPDATE', first, first), staticListers([first])))
        .allowed,
    ).toBe(true);
  });
});

describe('ExtensionValidator', () => {
  it("refuses the example Shoot's networking type until a ControllerRegistration lists it", async () => {
    const registration = example('local/controllerregistration.yaml');
    const result = await runChain(
      [ExtensionValidator],
      request('CREATE', example('local/shoot.yaml')),
      staticListers([registration]),
    );
    expect(!result.allowed && result.message).toBe(
      'shoots.core.gardener.cloud "local" is forbidden: spec.networking.type: Invalid value: "calico": given type "calico" for kind "Network" is not registered by any ControllerRegistration',
    );
    const calico = {
      ...registration,
      metadata: { name: 'networking-calico' },
      spec: { resources: [{ kind: 'Network', type: 'calico' }] },
    };
    expect(
      (
        await runChain(
          [ExtensionValidator],
          request('CREATE', example('local/shoot.yaml')),
          staticListers([registration, calico]),
        )
      ).allowed,
    ).toBe(true);
  });

  it('is off unless enabled', () => {
    expect(selectPlugins().map((p) => p.name)).not.toContain('ExtensionValidator');
    expect(
      selectPlugins({ enabled: ['ExtensionValidator'], disabled: ['ShootValidator'] }).map((p) => p.name),
    ).toContain('ExtensionValidator');
    expect(() => selectPlugins({ disabled: ['NoSuchPlugin'] })).toThrow('unknown admission plugin(s): NoSuchPlugin');
  });
});

describe('FinalizerRemoval', () => {
  const withFinalizer = (o: KubeObject): KubeObject => ({
    ...o,
    metadata: { ...o.metadata, finalizers: ['gardener'] },
  });

  it('keeps the gardener finalizer on a Shoot until its deletion succeeded', async () => {
    const old = withFinalizer(example('local/shoot.yaml'));
    const next = example('local/shoot.yaml');
    const refused = await runChain([FinalizerRemoval], request('UPDATE', next, old), staticListers([]));
    expect(!refused.allowed && refused.message).toBe(
      'shoots.core.gardener.cloud "local" is forbidden: shoot deletion has not completed successfully yet',
    );
    old.status = { lastOperation: { type: 'Delete', state: 'Succeeded' } };
    expect((await runChain([FinalizerRemoval], request('UPDATE', next, old), staticListers([]))).allowed).toBe(true);
  });

  it('keeps the finalizer on a CredentialsBinding that a Shoot uses', async () => {
    const old = withFinalizer(example('local/credentialsbinding.yaml'));
    const next = example('local/credentialsbinding.yaml');
    const result = await runChain(
      [FinalizerRemoval],
      request('UPDATE', next, old),
      staticListers([example('local/shoot.yaml')]),
    );
    expect(!result.allowed && result.message).toContain(
      'cannot be removed because the CredentialsBinding is still referenced by at least one Shoot',
    );
    expect((await runChain([FinalizerRemoval], request('UPDATE', next, old), staticListers([]))).allowed).toBe(true);
  });
});

describe('ShootTolerationRestriction', () => {
  const project = (tolerations: object) => ({
    ...example('local/project.yaml'),
    spec: { namespace: 'garden-local', tolerations },
  });

  it("adds the project's default tolerations to a new Shoot and refuses tolerations outside its whitelist", async () => {
    const listers = staticListers([project({ defaults: [{ key: 'default' }], whitelist: [{ key: 'allowed' }] })]);
    const created = await runChain(
      [ShootTolerationRestriction],
      request('CREATE', example('local/shoot.yaml')),
      listers,
    );
    expect(created.allowed && created.object?.spec.tolerations).toEqual([{ key: 'default' }]);
    const shoot = example('local/shoot.yaml');
    shoot.spec.tolerations = [{ key: 'allowed', value: 'x' }, { key: 'secret-seeds' }];
    const refused = await runChain([ShootTolerationRestriction], request('CREATE', shoot), listers);
    expect(!refused.allowed && refused.message).toContain(
      'spec.tolerations[1]: Forbidden: toleration {"key":"secret-seeds"} is not in the project\'s whitelist',
    );
  });
});

describe('Bastion', () => {
  const bastion = {
    apiVersion: 'operations.gardener.cloud/v1alpha1',
    kind: 'Bastion',
    metadata: { name: 'b', namespace: 'garden-local' },
    spec: {
      shootRef: { name: 'local' },
      sshPublicKey: 'ssh-ed25519 AAAA',
      ingress: [{ ipBlock: { cidr: '1.2.3.4/32' } }],
    },
  };

  it('takes the seed and provider of a scheduled Shoot and refuses unscheduled or missing ones', async () => {
    const shoot = example('local/shoot.yaml');
    expect(await runChain([BastionValidator], request('CREATE', bastion), staticListers([]))).toMatchObject({
      allowed: false,
      message:
        'bastions.operations.gardener.cloud "b" is forbidden: spec.shootRef.name: Invalid value: "local": shoot not found',
    });
    const unscheduled = await runChain([BastionValidator], request('CREATE', bastion), staticListers([shoot]));
    expect(!unscheduled.allowed && unscheduled.message).toContain('shoot is not yet scheduled to a seed');
    shoot.spec.seedName = 'local';
    const result = await runChain([BastionValidator], request('CREATE', bastion), staticListers([shoot]));
    expect(result.allowed && result.object?.spec).toMatchObject({ seedName: 'local', providerType: 'local' });
    expect(result.allowed && result.object?.metadata?.annotations?.['gardener.cloud/created-by']).toBe(
      'alice@example.com',
    );
  });
});

describe('resource size limits (gardener-admission-controller)', () => {
  const config = {
    limits: [{ apiGroups: ['core.gardener.cloud'], apiVersions: ['*'], resources: ['shoots'], size: '1k' }],
    unrestrictedSubjects: [
      { kind: 'Group' as const, name: 'gardener.cloud:system:seeds', apiGroup: 'rbac.authorization.k8s.io' },
    ],
    operationMode: 'block' as const,
  };

  it('refuses a Shoot above the configured size, unless the requester is unrestricted or the mode is log', async () => {
    const shoot = example('local/shoot.yaml');
    shoot.metadata!.annotations = { ...shoot.metadata!.annotations, big: 'x'.repeat(2000) };
    const result = await runChain([resourceSizeValidator(config)], request('CREATE', shoot), staticListers([]));
    expect(!result.allowed && result.message).toMatch(
      /^shoots\.core\.gardener\.cloud "local" is forbidden: resource size exceeded: \d+ bytes > 1000 bytes$/,
    );
    const seed = {
      ...request('CREATE', shoot),
      userInfo: { username: 'gardener.cloud:system:seed:a', groups: ['gardener.cloud:system:seeds'] },
    };
    expect((await runChain([resourceSizeValidator(config)], seed, staticListers([]))).allowed).toBe(true);
    const logged = await runChain(
      [resourceSizeValidator({ ...config, operationMode: 'log' })],
      request('CREATE', shoot),
      staticListers([]),
    );
    expect(logged.allowed && logged.warnings[0]).toContain('resource size exceeded');
    expect(
      (
        await runChain(
          [resourceSizeValidator(config)],
          request('CREATE', example('local/shoot.yaml')),
          staticListers([]),
        )
      ).allowed,
    ).toBe(true);
  });
});

describe('ShootExposureClass, ShootVPAEnabledByDefault, ShootNodeLocalDNSEnabledByDefault', () => {
  it("merges the ExposureClass's seed selector and tolerations into a new Shoot", async () => {
    const exposureClass = {
      apiVersion: 'core.gardener.cloud/v1beta1',
      kind: 'ExposureClass',
      metadata: { name: 'internet' },
      handler: 'internet-config',
      scheduling: {
        seedSelector: { matchLabels: { network: 'internet' } },
        tolerations: [{ key: 'network-internet' }],
      },
    };
    const shoot = example('local/shoot.yaml');
    shoot.spec.exposureClassName = 'internet';
    const result = await runChain([ShootExposureClass], request('CREATE', shoot), staticListers([exposureClass]));
    expect(result.allowed && result.object?.spec.seedSelector).toEqual({ matchLabels: { network: 'internet' } });
    expect(result.allowed && result.object?.spec.tolerations).toEqual([{ key: 'network-internet' }]);
    const missing = await runChain([ShootExposureClass], request('CREATE', shoot), staticListers([]));
    expect(!missing.allowed && missing.message).toContain('exposureclasses.core.gardener.cloud "internet" not found');
  });

  it('switches VPA and node-local DNS on unless the Shoot decides', async () => {
    const plugins = [ShootVPAEnabledByDefault, ShootNodeLocalDNSEnabledByDefault];
    const result = await runChain(plugins, request('CREATE', example('local/shoot.yaml')), staticListers([]));
    expect(result.allowed && result.object?.spec.kubernetes.verticalPodAutoscaler).toEqual({ enabled: true });
    expect(result.allowed && result.object?.spec.systemComponents.nodeLocalDNS).toEqual({ enabled: true });
    const decided = example('local/shoot.yaml');
    decided.spec.kubernetes.verticalPodAutoscaler = { enabled: false };
    const kept = await runChain(plugins, request('CREATE', decided), staticListers([]));
    expect(kept.allowed && kept.object?.spec.kubernetes.verticalPodAutoscaler).toEqual({ enabled: false });
  });
});
