import { describe, expect, it } from 'vitest';
import { parseComponentConfig } from '../load.js';
import { resourceManagerConfigSpec } from './resource-manager.js';

const head = 'apiVersion: resourcemanager.config.gardener.cloud/v1alpha1\nkind: ResourceManagerConfiguration\n';

describe('ResourceManagerConfiguration (ManagedResource, health, GC controllers)', () => {
  it('reads source/target connections, namespace restriction, class, cluster id and managed-by value', () => {
    const { config, ignoredFields } = parseComponentConfig(
      resourceManagerConfigSpec,
      `${head}sourceClientConnection:\n  kubeconfig: /src\n  namespace: shoot--a\ntargetClientConnection:\n  kubeconfig: /tgt\ncontrollers:\n  clusterID: <cluster>\n  resourceClass: shoot\n  managedResource:\n    managedByLabelValue: me\n  garbageCollector:\n    enabled: true\n    minimumObjectLifetime: 0s\nnats:\n  servers: nats://localhost:4222\n  seed: seed-a\n`,
    );
    expect(ignoredFields).toEqual([]);
    expect(config.sourceClientConnection).toMatchObject({ kubeconfig: '/src', namespace: 'shoot--a' });
    expect(config.targetClientConnection.kubeconfig).toBe('/tgt');
    expect(config.controllers).toMatchObject({
      clusterID: '<cluster>',
      resourceClass: 'shoot',
      managedResource: { managedByLabelValue: 'me', syncPeriod: '1m' },
    });
    expect(config.controllers.garbageCollector).toMatchObject({
      enabled: true,
      minimumObjectLifetime: '0s',
      syncPeriod: '1h',
    });
    expect(config.nats).toEqual({ servers: 'nats://localhost:4222', seed: 'seed-a' });
  });

  it('defaults: class "resources", no cluster id, managed-by "gardener", GC off with a 10m minimum lifetime, no NATS', () => {
    const { config } = parseComponentConfig(resourceManagerConfigSpec, head);
    expect(config.controllers.resourceClass).toBe('resources');
    expect(config.controllers.clusterID).toBe('');
    expect(config.controllers.managedResource.managedByLabelValue).toBe('gardener');
    expect(config.controllers.garbageCollector).toMatchObject({ enabled: false, minimumObjectLifetime: '10m' });
    expect(config.nats).toBeUndefined();
  });
});

describe('ResourceManagerConfiguration (token, CSR and node controllers)', () => {
  it('defaults: token requestor class "shoot", token invalidator off, node backoff 10s', () => {
    const { config } = parseComponentConfig(resourceManagerConfigSpec, head);
    expect(config.controllers.tokenRequestor).toEqual({ enabled: false, concurrentSyncs: 5, class: 'shoot' });
    expect(config.controllers.tokenInvalidator).toEqual({ enabled: false, concurrentSyncs: 5 });
    expect(config.controllers.nodeCriticalComponents).toMatchObject({ enabled: false, backoff: '10s' });
  });

  it('reads the token invalidator and the token requestor class', () => {
    const { config } = parseComponentConfig(
      resourceManagerConfigSpec,
      `${head}controllers:\n  tokenInvalidator:\n    enabled: true\n  tokenRequestor:\n    enabled: true\n    class: garden\n`,
    );
    expect(config.controllers.tokenInvalidator.enabled).toBe(true);
    expect(config.controllers.tokenRequestor).toMatchObject({ enabled: true, class: 'garden' });
  });
});

describe('ResourceManagerConfiguration (webhooks)', () => {
  it('reads webhooks.tokenInvalidator separately from the controller of the same name', () => {
    const { config, ignoredFields } = parseComponentConfig(
      resourceManagerConfigSpec,
      `${head}controllers:\n  tokenInvalidator:\n    enabled: true\n`,
    );
    expect(ignoredFields).toEqual([]);
    expect(config.webhooks.tokenInvalidator).toEqual({ enabled: false });
    const { config: withWebhook } = parseComponentConfig(
      resourceManagerConfigSpec,
      `${head}webhooks:\n  tokenInvalidator:\n    enabled: true\n`,
    );
    expect(withWebhook.webhooks.tokenInvalidator.enabled).toBe(true);
    expect(withWebhook.controllers.tokenInvalidator.enabled).toBe(false);
  });

  it('reads the node-agent authorizer and requires its machine namespace when enabled', () => {
    const { config } = parseComponentConfig(
      resourceManagerConfigSpec,
      `${head}webhooks:\n  nodeAgentAuthorizer:\n    enabled: true\n    machineNamespace: shoot--a\n    authorizeWithSelectors: true\n`,
    );
    expect(config.webhooks.nodeAgentAuthorizer).toEqual({
      enabled: true,
      machineNamespace: 'shoot--a',
      authorizeWithSelectors: true,
    });
    expect(() =>
      parseComponentConfig(resourceManagerConfigSpec, `${head}webhooks:\n  nodeAgentAuthorizer:\n    enabled: true\n`),
    ).toThrow(/machine namespace must not be empty/);
  });

  it('webhookRegistration (gardener-ts extension): off by default, named gardener-resource-manager', () => {
    expect(parseComponentConfig(resourceManagerConfigSpec, head).config.webhookRegistration).toEqual({
      enabled: false,
      name: 'gardener-resource-manager',
    });
    const { config } = parseComponentConfig(
      resourceManagerConfigSpec,
      `${head}webhookRegistration:\n  enabled: true\n  service:\n    namespace: garden\n    name: grm\n    port: 443\n`,
    );
    expect(config.webhookRegistration).toEqual({
      enabled: true,
      name: 'gardener-resource-manager',
      service: { namespace: 'garden', name: 'grm', port: 443 },
    });
  });
});
