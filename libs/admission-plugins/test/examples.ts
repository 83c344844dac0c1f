// Gardener's example manifests (deploy/gardener/examples) as test inputs, and request attributes built the way the
// API server sends them.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseManifests } from '@gardener-ts/api';
import type { AdmissionAttributes, AdmissionOperation, KubeObject } from '../src/attributes.js';

const examples = fileURLToPath(new URL('../../../deploy/gardener/examples/', import.meta.url));

/**
 * The single object of an example file (`local/shoot.yaml`). The templates' provider placeholders
 * (`type: <provider-name>`) are filled with `local`: left in, they are invalid label values in Gardener too.
 */
export function example(file: string): KubeObject {
  const text = readFileSync(`${examples}${file}`, 'utf8').replace(/<(some-)?provider-name>/g, 'local');
  const [object] = parseManifests(text, file);
  return structuredClone(object) as KubeObject;
}

const PLURALS: Record<string, string> = {
  Shoot: 'shoots',
  Project: 'projects',
  CloudProfile: 'cloudprofiles',
  Seed: 'seeds',
  ShootState: 'shootstates',
  SecretBinding: 'secretbindings',
  CredentialsBinding: 'credentialsbindings',
  ControllerRegistration: 'controllerregistrations',
  ManagedSeed: 'managedseeds',
};

/** The attributes of a request on `object` (for DELETE, `old` is the stored object). */
export function request(
  operation: AdmissionOperation,
  object: KubeObject | undefined,
  old?: KubeObject,
  username = 'alice@example.com',
): AdmissionAttributes {
  const subject = (object ?? old)!;
  const [group, version] = subject.apiVersion!.includes('/')
    ? subject.apiVersion!.split('/')
    : ['', subject.apiVersion!];
  return {
    operation,
    kind: { group: group!, version: version!, kind: subject.kind! },
    resource: {
      group: group!,
      version: version!,
      resource: PLURALS[subject.kind!] ?? `${subject.kind!.toLowerCase()}s`,
    },
    name: subject.metadata?.name,
    ...(subject.metadata?.namespace ? { namespace: subject.metadata.namespace } : {}),
    object: operation === 'DELETE' ? null : (object ?? null),
    oldObject: operation === 'CREATE' ? null : (old ?? null),
    userInfo: { username, groups: ['system:authenticated'] },
  };
}
