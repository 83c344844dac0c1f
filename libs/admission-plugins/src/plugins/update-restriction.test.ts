// The update restriction handler: system Secrets and ConfigMaps (labelled gardener.cloud/update-restriction=true) are
// written by gardenlets only; the garbage collector may delete and gardener-internal update them.
import { describe, expect, it } from 'vitest';
import type { AdmissionAttributes, AdmissionOperation, KubeObject, UserInfo } from '../attributes.js';
import { runValidating } from '../chain.js';
import { staticListers } from '../listers.js';
import { admissionWebhookConfigurations, WebhookPaths } from '../webhook/configurations.js';
import { UpdateRestriction, UpdateRestrictionLabel, updateRestrictionRefusal } from './update-restriction.js';

const configMap = (restricted = true): KubeObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: {
    name: 'shoot.ca-cluster',
    namespace: 'garden-local',
    labels: restricted ? { [UpdateRestrictionLabel]: 'true' } : { other: 'x' },
  },
});

function request(operation: AdmissionOperation, userInfo: UserInfo, object = configMap()): AdmissionAttributes {
  const kind = object.kind!;
  return {
    operation,
    kind: { group: '', version: 'v1', kind },
    resource: { group: '', version: 'v1', resource: `${kind.toLowerCase()}s` },
    namespace: 'garden-local',
    name: object.metadata!.name,
    object: operation === 'DELETE' ? null : object,
    oldObject: operation === 'CREATE' ? null : object,
    userInfo,
  };
}

const check = (a: AdmissionAttributes) => runValidating([UpdateRestriction], a, staticListers([]));

describe('UpdateRestriction', () => {
  it('lets gardenlets of seeds and of self-hosted shoots write system resources', async () => {
    for (const group of ['gardener.cloud:system:seeds', 'gardener.cloud:system:shoots'])
      for (const op of ['CREATE', 'UPDATE', 'DELETE'] as const)
        expect((await check(request(op, { username: 'gardenlet', groups: [group] }))).allowed, `${group} ${op}`).toBe(
          true,
        );
  });

  it('refuses everyone else with Gardener’s message', async () => {
    expect(await check(request('UPDATE', { username: 'not-gardenlet', groups: ['system:masters'] }))).toMatchObject({
      allowed: false,
      code: 403,
      reason: 'Forbidden',
      message: 'user "not-gardenlet" is not allowed to UPDATE system configmaps',
    });
    // A seed's extension is no gardenlet.
    const extension = {
      username: 'system:serviceaccount:seed-local:extension-provider-local',
      groups: ['system:serviceaccounts', 'system:serviceaccounts:seed-local'],
    };
    const secret = { ...configMap(), kind: 'Secret' };
    expect(await check(request('CREATE', extension, secret))).toMatchObject({
      message:
        'user "system:serviceaccount:seed-local:extension-provider-local" is not allowed to CREATE system secrets',
    });
  });

  it('lets the garbage collector delete and gardener-internal update, nothing more', () => {
    const gc = { username: 'system:serviceaccount:kube-system:generic-garbage-collector' };
    const internal = { username: 'system:serviceaccount:kube-system:gardener-internal' };
    expect(updateRestrictionRefusal(request('DELETE', gc))).toBeUndefined();
    expect(updateRestrictionRefusal(request('UPDATE', gc))).toBe(
      'user "system:serviceaccount:kube-system:generic-garbage-collector" is not allowed to UPDATE system configmaps',
    );
    expect(updateRestrictionRefusal(request('UPDATE', internal))).toBeUndefined();
    expect(updateRestrictionRefusal(request('DELETE', internal))).toBe(
      'user "system:serviceaccount:kube-system:gardener-internal" is not allowed to DELETE system configmaps',
    );
  });

  it('handles labelled Secrets and ConfigMaps only, the label on the new or the stored object', () => {
    const alice = { username: 'alice' };
    expect(UpdateRestriction.handles(request('UPDATE', alice, configMap(false)))).toBe(false);
    // Removing the label is an update of a restricted object.
    expect(UpdateRestriction.handles({ ...request('UPDATE', alice), object: configMap(false) })).toBe(true);
    expect(UpdateRestriction.handles(request('DELETE', alice))).toBe(true);
    expect(UpdateRestriction.handles(request('CREATE', alice, { ...configMap(), kind: 'ServiceAccount' }))).toBe(false);
  });

  it('is registered as Gardener’s update-restriction.gardener.cloud: labelled Secrets and ConfigMaps, every write', () => {
    const validating = admissionWebhookConfigurations({ url: 'https://127.0.0.1:1' }, 'ca').find(
      (c) => c.kind === 'ValidatingWebhookConfiguration',
    )!;
    const webhook = validating.webhooks.find((w) => w.name === 'update-restriction.gardener.cloud')!;
    expect(webhook).toMatchObject({
      clientConfig: { url: `https://127.0.0.1:1${WebhookPaths.updateRestriction}` },
      failurePolicy: 'Fail',
      objectSelector: { matchLabels: { [UpdateRestrictionLabel]: 'true' } },
      rules: [
        {
          operations: ['CREATE', 'UPDATE', 'DELETE'],
          apiGroups: [''],
          apiVersions: ['v1'],
          resources: ['secrets', 'configmaps'],
        },
      ],
    });
    expect(WebhookPaths.updateRestriction).toBe('/webhooks/update-restriction');
    expect(webhook).not.toHaveProperty('namespaceSelector');
  });
});
