import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { crdFileName, generatedCRDs, gardenerCRDs, renderCRD, type JSONSchemaProps } from '../src/crd/index.js';

const crdsDir = fileURLToPath(new URL('../crds', import.meta.url));
const byName = (name: string) => {
  const crd = generatedCRDs().find((c) => c.metadata.name === name);
  if (!crd) throw new Error(`no CRD ${name}`);
  return crd;
};
const at = (schema: JSONSchemaProps, path: string): JSONSchemaProps =>
  path.split('.').reduce<JSONSchemaProps>((node, key) => {
    const next = key === '[]' ? node.items : node.properties?.[key];
    if (!next) throw new Error(`no schema at ${path} (${key})`);
    return next;
  }, schema);

describe('generated CRDs', () => {
  it('are up to date in crds/ (run `npm run generate -w @gardener-ts/api` after changing a schema)', () => {
    const expected = new Map(generatedCRDs().map((crd) => [crdFileName(crd), renderCRD(crd)]));
    const onDisk = readdirSync(crdsDir).filter((name) => name.endsWith('.yaml'));
    expect(onDisk.sort()).toEqual([...expected.keys()].sort());
    for (const [name, content] of expected) expect(readFileSync(join(crdsDir, name), 'utf8'), name).toBe(content);
  });

  it('describe Shoots like Gardener: namespaced, status subresource, kubectl columns', () => {
    const shoot = byName('shoots.core.gardener.cloud');
    expect(shoot.spec.scope).toBe('Namespaced');
    const [version] = shoot.spec.versions;
    expect(version.name).toBe('v1beta1');
    expect(version.subresources).toEqual({ status: {} });
    const defaultColumns = version
      .additionalPrinterColumns!.filter((c) => !c.priority)
      .map((c) => c.name.toUpperCase());
    expect(defaultColumns).toEqual([
      'CLOUDPROFILE',
      'PROVIDER',
      'REGION',
      'K8S VERSION',
      'HIBERNATION',
      'LAST OPERATION',
      'STATUS',
      'AGE',
    ]);
  });

  it('uses int-or-string, preserve-unknown-fields and required markers structurally', () => {
    const schema = byName('shoots.core.gardener.cloud').spec.versions[0].schema!.openAPIV3Schema;
    const worker = at(schema, 'spec.provider.workers.[]');
    expect(at(worker, 'maxSurge')).toEqual({
      anyOf: [{ type: 'integer' }, { type: 'string' }],
      'x-kubernetes-int-or-string': true,
    });
    expect(at(worker, 'providerConfig')).toEqual({ 'x-kubernetes-preserve-unknown-fields': true });
    expect(worker.required).toEqual(['name', 'machine', 'maximum', 'minimum']);
    expect(at(schema, 'spec').required).toEqual(['kubernetes', 'provider', 'region']);
    expect(schema.required).toEqual(['spec']);
    // Status is written piecewise by controllers: no required markers there.
    expect(JSON.stringify(at(schema, 'status'))).not.toContain('"required"');
  });

  it('are cluster-scoped where Gardener is (Seed, CloudProfile, Project, ControllerRegistration)', () => {
    for (const name of [
      'seeds',
      'cloudprofiles',
      'projects',
      'controllerregistrations',
      'backupbuckets',
      'exposureclasses',
    ]) {
      expect(byName(`${name}.core.gardener.cloud`).spec.scope, name).toBe('Cluster');
    }
    expect(byName('controllerdeployments.core.gardener.cloud').spec.versions[0].name).toBe('v1');
    expect(byName('credentialsbindings.security.gardener.cloud').spec.scope).toBe('Namespaced');
  });
});

describe('Gardener CRDs', () => {
  it('are shipped for the extensions, resources, operator and machine groups', () => {
    const groups = new Set(gardenerCRDs().map((crd) => crd.spec.group));
    expect([...groups].sort()).toEqual([
      'extensions.gardener.cloud',
      'machine.sapcloud.io',
      'operator.gardener.cloud',
      'resources.gardener.cloud',
    ]);
    expect(gardenerCRDs().map((c) => c.metadata.name)).toContain('managedresources.resources.gardener.cloud');
  });

  it('keep the license notice next to the copied files', () => {
    expect(readFileSync(join(crdsDir, 'gardener', 'LICENSE'), 'utf8')).toContain('Apache License');
  });
});
