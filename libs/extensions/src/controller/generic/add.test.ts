import { describe, expect, it } from 'vitest';
import type { ObjectEvent } from '@gardener-ts/controller-runtime';
import { extensionResource } from '../../testing.js';
import { extensionPredicates, hasPurpose, kindSpecFor } from './add.js';
import type { ExtensionObject } from './kinds.js';

const passes = (
  event: ObjectEvent<ExtensionObject>,
  options: Parameters<typeof extensionPredicates>[0] = { types: ['hello'] },
) => extensionPredicates(options).every((p) => p(event));
const ext = (spec: Partial<ExtensionObject['spec']> = {}, operation: string | null = 'reconcile') =>
  extensionResource(
    'Extension',
    'shoot--dev--demo',
    'hello',
    { type: 'hello', ...spec },
    { operation: operation ?? undefined },
  );
const succeeded = (obj: ExtensionObject): ExtensionObject => ({
  ...obj,
  status: { lastOperation: { type: 'Create', state: 'Succeeded', progress: 100, description: '', lastUpdateTime: '' } },
});

describe('extensionPredicates', () => {
  it('lets through what gardenlet asks for: an annotated object, a new unfinished one, a deletion that started', () => {
    expect(passes({ type: 'create', object: ext() })).toBe(true);
    expect(passes({ type: 'create', object: ext({}, null) })).toBe(true);
    expect(passes({ type: 'create', object: succeeded(ext({}, null)) })).toBe(false);
    const plain = succeeded(ext({}, null));
    expect(passes({ type: 'update', oldObject: plain, object: succeeded(ext()) })).toBe(true);
    expect(
      passes({
        type: 'update',
        oldObject: plain,
        object: { ...plain, metadata: { ...plain.metadata, deletionTimestamp: 'now' } },
      }),
    ).toBe(true);
  });

  it("drops the controller's own status writes of a failed operation and spec changes without the annotation", () => {
    const failed = {
      ...ext({}, null),
      status: { lastOperation: { type: 'Create', state: 'Error', progress: 50, description: '', lastUpdateTime: '' } },
    };
    expect(passes({ type: 'update', oldObject: failed, object: failed })).toBe(false);
    const plain = succeeded(ext({}, null));
    expect(
      passes({
        type: 'update',
        oldObject: plain,
        object: { ...plain, spec: { ...plain.spec, providerConfig: { x: 1 } } },
      }),
    ).toBe(false);
  });

  it('filters by type, class and ControlPlane purpose', () => {
    expect(passes({ type: 'create', object: ext({ type: 'other' }) })).toBe(false);
    expect(passes({ type: 'create', object: ext({ class: 'seed' }) })).toBe(false);
    expect(passes({ type: 'create', object: ext({ class: 'seed' }) }, { types: ['hello'], classes: ['seed'] })).toBe(
      true,
    );
    expect(hasPurpose(ext(), 'normal')).toBe(true);
    expect(hasPurpose(ext({ purpose: 'exposure' }), 'normal')).toBe(false);
  });

  it('with the annotation ignored, reacts to spec changes only', () => {
    const plain = succeeded(ext({}, null));
    const changed = { ...plain, metadata: { ...plain.metadata, generation: 2 } };
    expect(
      passes(
        { type: 'update', oldObject: { ...plain, metadata: { ...plain.metadata, generation: 1 } }, object: changed },
        { types: ['hello'], ignoreOperationAnnotation: true },
      ),
    ).toBe(true);
    expect(
      passes(
        { type: 'update', oldObject: changed, object: changed },
        { types: ['hello'], ignoreOperationAnnotation: true },
      ),
    ).toBe(false);
  });
});

describe('kindSpecFor', () => {
  it("names an Extension controller's finalizer after its type, other kinds as Gardener does", () => {
    expect(kindSpecFor({ kind: 'Extension', types: ['shoot-dns-service'] }).finalizer).toBe(
      'extensions.gardener.cloud/shoot-dns-service',
    );
    expect(kindSpecFor({ kind: 'OperatingSystemConfig', types: ['ubuntu'] }).finalizer).toBe(
      'extensions.gardener.cloud/operatingsystemconfigs',
    );
    expect(
      kindSpecFor({ kind: 'BackupEntry', types: ['local'] }).clusterName({
        metadata: { name: 'shoot--dev--demo--a1b2' },
        spec: { type: 'local' },
      }),
    ).toBe('shoot--dev--demo');
  });
});
