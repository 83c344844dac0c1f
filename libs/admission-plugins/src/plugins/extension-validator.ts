// ExtensionValidator (gardener-apiserver plugin/pkg/global/extensionvalidation): the extension types a Shoot, Seed,
// BackupBucket or BackupEntry names must be registered by some ControllerRegistration (its `spec.resources` lists the
// kind and type), so nothing is created that no extension would ever reconcile. A workerless Shoot needs no provider
// extensions, and its own extensions must be registered with `workerlessSupported: true`.
import { FieldPath, invalid, type FieldError } from '@gardener-ts/api';
import { allow, CORE, forbiddenFields, isKind, type KubeObject } from '../attributes.js';
import type { AdmissionPlugin } from '../chain.js';
import { isWorkerless, validateWorkerlessExtensions, workerlessSupportedExtensionTypes } from './shoot-workerless.js';

interface Needed {
  kind: string;
  type: string;
  path: FieldPath;
}

/** The extension kinds and types an object needs, with the field naming each. */
export function neededExtensions(kind: string, object: KubeObject): Needed[] {
  const spec = object.spec ?? {};
  const root = FieldPath.root('spec');
  const needed: Needed[] = [];
  const add = (k: string, type: string | undefined, path: FieldPath) => type && needed.push({ kind: k, type, path });
  if (kind === 'Shoot') {
    const provider = root.child('provider', 'type');
    // A workerless Shoot needs no provider extension (Gardener's validateShoot), only its own extensions.
    if (!isWorkerless(object))
      for (const k of ['ControlPlane', 'Infrastructure', 'Worker']) add(k, spec.provider?.type, provider);
    add('Network', spec.networking?.type, root.child('networking', 'type'));
    (spec.extensions ?? []).forEach((e: { type?: string }, i: number) =>
      add('Extension', e.type, root.child('extensions').index(i).child('type')),
    );
    (spec.provider?.workers ?? []).forEach((w: any, i: number) => {
      const path = root.child('provider', 'workers').index(i);
      add('OperatingSystemConfig', w.machine?.image?.name, path.child('machine', 'image', 'name'));
      (w.cri?.containerRuntimes ?? []).forEach((r: { type?: string }, j: number) =>
        add('ContainerRuntime', r.type, path.child('cri', 'containerRuntimes').index(j).child('type')),
      );
    });
  } else if (kind === 'Seed') {
    add('BackupBucket', spec.backup?.provider, root.child('backup', 'provider'));
    add('DNSRecord', spec.dns?.provider?.type, root.child('dns', 'provider', 'type'));
    (spec.extensions ?? []).forEach((e: { type?: string }, i: number) =>
      add('Extension', e.type, root.child('extensions').index(i).child('type')),
    );
  } else if (kind === 'BackupBucket' || kind === 'BackupEntry') {
    add(kind, spec.provider?.type, root.child('provider', 'type'));
  }
  return needed;
}

/** The ExtensionValidator admission plugin. */
export const ExtensionValidator: AdmissionPlugin = {
  name: 'ExtensionValidator',
  handles: (a) =>
    (a.operation === 'CREATE' || a.operation === 'UPDATE') &&
    !a.subresource &&
    Boolean(a.object) &&
    !a.object?.metadata?.deletionTimestamp &&
    ['Shoot', 'Seed', 'BackupBucket', 'BackupEntry'].some((k) => isKind(a, CORE, k)),
  async validate(a, listers) {
    const registrations = await listers.list('core.gardener.cloud/v1beta1', 'ControllerRegistration');
    const registered = new Set(
      registrations.flatMap((r) =>
        (r.spec?.resources ?? []).map((x: { kind: string; type: string }) => `${x.kind}/${x.type}`),
      ),
    );
    const errors: FieldError[] = [];
    const seen = new Set<string>();
    for (const n of neededExtensions(a.kind.kind, a.object!)) {
      if (registered.has(`${n.kind}/${n.type}`) || seen.has(`${n.path}`)) continue;
      seen.add(`${n.path}`);
      errors.push(
        invalid(
          n.path,
          n.type,
          `given type "${n.type}" for kind "${n.kind}" is not registered by any ControllerRegistration`,
        ),
      );
    }
    if (isKind(a, CORE, 'Shoot'))
      errors.push(...validateWorkerlessExtensions(a.object!, workerlessSupportedExtensionTypes(registrations)));
    return errors.length > 0 ? forbiddenFields(a, errors) : allow();
  },
};
