// The fields of every kind we serve stay those of Gardener's API: our schemas (core, security, seedmanagement,
// operations) and the vendored Gardener CRDs are compared with the field lists recorded in
// fixtures/gardener-api-fields.yaml from Gardener's Go types and CRDs (see its header for the sources).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { gardenerCRDs, generatedCRDs } from '../src/crd/index.js';
import { crdFieldPaths, kindKey } from './field-paths.js';

interface RecordedFields {
  tombstoned: Record<string, string[]>;
  kinds: Record<string, string[]>;
}

const fixture = fileURLToPath(new URL('./fixtures/gardener-api-fields.yaml', import.meta.url));
const recorded = parse(readFileSync(fixture, 'utf8')) as RecordedFields;

/** What differs between the recorded list and the schema, in words a reviewer can check against Gardener's types. */
function drift(actual: string[], expected: string[]): { notInGardener: string[]; missing: string[] } {
  const have = new Set(actual);
  const want = new Set(expected);
  return { notInGardener: actual.filter((p) => !want.has(p)), missing: expected.filter((p) => !have.has(p)) };
}

describe("the fields of Gardener's API", () => {
  const ours = generatedCRDs();
  const vendored = gardenerCRDs();

  it('are recorded for every kind we serve, and only for those', () => {
    expect(Object.keys(recorded.kinds).sort()).toEqual([...ours, ...vendored].map(kindKey).sort());
  });

  for (const crd of ours) {
    it(`${kindKey(crd)}: our schema has exactly the recorded fields`, () => {
      expect(drift(crdFieldPaths(crd), recorded.kinds[kindKey(crd)] ?? [])).toEqual({ notInGardener: [], missing: [] });
    });
  }

  for (const crd of vendored) {
    it(`${kindKey(crd)}: the vendored CRD has exactly the recorded fields`, () => {
      expect(drift(crdFieldPaths(crd), recorded.kinds[kindKey(crd)] ?? [])).toEqual({ notInGardener: [], missing: [] });
    });
  }

  it('keep the fields Gardener tombstoned out (they stay refused as unknown fields)', () => {
    expect(Object.keys(recorded.tombstoned).length).toBeGreaterThan(0);
    for (const [kind, paths] of Object.entries(recorded.tombstoned)) {
      const crd = ours.find((c) => kindKey(c) === kind);
      expect(crd, kind).toBeDefined();
      const fields = new Set(crdFieldPaths(crd!));
      for (const path of paths) expect(fields.has(path), `${kind} ${path}`).toBe(false);
      // A tombstoned field is no recorded field either.
      expect(recorded.kinds[kind].filter((p) => paths.includes(p))).toEqual([]);
    }
  });

  it('include what Gardener added lately (ControllerDeployment injectGardenKubeconfig and resources)', () => {
    const fields = recorded.kinds['core.gardener.cloud/v1, Kind=ControllerDeployment'];
    expect(fields).toEqual(
      expect.arrayContaining([
        'injectGardenKubeconfig',
        'resources[].name',
        'resources[].resourceRef.kind',
        'helm.ociRepository.caBundleSecretRef.name',
      ]),
    );
  });
});
