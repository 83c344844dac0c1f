// CRD additionalPrinterColumns against an independent oracle: for every CRD we generate (libs/api/crds) or vendor
// (deploy/gardener/crds, and any other variant of a CRD found there), a sample object that fills every column's path
// (with decoys: a second list element, a condition of another type) is stored, the server's Table for it is fetched
// (`Accept: application/json;as=Table;v=v1;g=meta.k8s.io`) and each cell is compared with what the real kubectl's
// jsonpath (`-o jsonpath`, client-go's implementation) finds on the same object — kube takes the first result.
// Sample objects are written to storage directly: they exist to exercise the columns, not to pass the CRDs' schemas.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { gardenerAsset, kubectl, runKubectl, workspaceRoot } from '@gardener-ts/test-support';
import { humanDuration } from '../../src/registry/builtin/index.js';
import { storageKey } from '../../src/server/keys.js';
import { startTestCluster, type TestCluster } from '../../src/index.js';
import { rawClient } from './raw-client.js';

interface Column {
  name: string;
  type: string;
  jsonPath: string;
}

interface CRDVariant {
  file: string;
  crd: any;
}

function yamlFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) return yamlFiles(path);
    return entry.endsWith('.yaml') ? [path] : [];
  });
}

/** Every distinct CRD (by name and content), in rounds: round i holds the i-th variant of each CRD name. */
function crdRounds(): CRDVariant[][] {
  const byName = new Map<string, Map<string, CRDVariant>>();
  for (const file of [
    ...yamlFiles(join(workspaceRoot(), 'libs', 'api', 'crds')),
    ...yamlFiles(gardenerAsset('crds')),
  ]) {
    const crd = parseYaml(readFileSync(file, 'utf8'));
    if (crd?.kind !== 'CustomResourceDefinition') continue;
    const variants = byName.get(crd.metadata.name) ?? new Map<string, CRDVariant>();
    variants.set(JSON.stringify(crd.spec), { file, crd });
    byName.set(crd.metadata.name, variants);
  }
  const rounds: CRDVariant[][] = [];
  for (const variants of byName.values()) [...variants.values()].forEach((v, i) => (rounds[i] ??= []).push(v));
  return rounds;
}

const SAMPLE_DATE = '2019-03-04T05:06:07Z';

function leaf(type: string, index: number, decoy: boolean): unknown {
  switch (type) {
    case 'integer':
      return decoy ? 900 + index : 10 + index;
    case 'number':
      return decoy ? 900.25 : 1.5 + index;
    case 'boolean':
      return !decoy;
    case 'date':
      return decoy ? '2001-01-01T00:00:00Z' : SAMPLE_DATE;
    default:
      return decoy ? `decoy-${index}` : `value-${index}`;
  }
}

/** The steps of a column path as the sample builder understands them (fields with `\.` escapes, [n], [*], filters). */
function steps(path: string): string[] | undefined {
  const out: string[] = [];
  const re = /\.((?:\\.|[^.[\\])+)|\[([^\]]*)\]/gy;
  let m: RegExpExecArray | null;
  let at = 0;
  while ((m = re.exec(path))) {
    out.push(m[1] !== undefined ? `.${m[1].replace(/\\/g, '')}` : `[${m[2]}]`);
    at = re.lastIndex;
  }
  return at === path.length ? out : undefined;
}

/** Sets a value at a column path, adding decoys that a wrong evaluator would pick. */
function setPath(target: any, path: string[], value: unknown, decoy: unknown): void {
  const [step, ...rest] = path;
  const container = (next: string | undefined) => (next?.startsWith('[') ? [] : {});
  const put = (parent: any, key: string | number, v: unknown, d: unknown) => {
    if (rest.length === 0) {
      if (parent[key] === undefined || typeof parent[key] !== 'object') parent[key] = v;
      return;
    }
    if (parent[key] === undefined || typeof parent[key] !== 'object') parent[key] = container(rest[0]);
    setPath(parent[key], rest, v, d);
  };
  if (step.startsWith('.')) return put(target, step.slice(1), value, decoy);
  const inner = step.slice(1, -1);
  if (!Array.isArray(target)) return;
  const filter = /^\?\(@\.(\w+)\s*==\s*["'](.*)["']\)$/.exec(inner);
  if (filter) {
    const [, key, wanted] = filter;
    let decoyItem = target.find((x) => x?.[key] !== wanted);
    if (!decoyItem) target.unshift((decoyItem = { [key]: `Not${wanted}` }));
    let item = target.find((x) => x?.[key] === wanted);
    if (!item) target.push((item = { [key]: wanted }));
    if (rest.length > 0) {
      setPath([decoyItem], ['[0]', ...rest], decoy, decoy);
      setPath([item], ['[0]', ...rest], value, decoy);
    }
    return;
  }
  const index = inner === '*' ? 0 : Number(inner);
  if (!Number.isInteger(index) || index < 0) return;
  while (target.length <= Math.max(index, 1)) target.push(rest.length === 0 ? undefined : container(rest[0]));
  put(target, index, value, decoy);
  // A second element (after the first match of [*], or beside [0]) carries the decoy.
  put(target, index === 0 ? 1 : 0, decoy, decoy);
}

let cluster: TestCluster;
const SEP = '\u241f';
const RS = '\u241e';

beforeAll(async () => {
  cluster = await startTestCluster();
  await kubectl(cluster.kubeconfigPath, ['create', 'namespace', 'columns']);
});
afterAll(async () => cluster?.stop());

/**
 * The oracle: kubectl's jsonpath over the objects (one list, `{range .items[*]}`), the first result of each column,
 * undefined when it finds none. A path kubectl cannot evaluate (an index out of bounds, a list indexed by a field)
 * fails the whole template; then each object and column is asked on its own.
 */
async function kubectlCells(
  resource: string,
  names: string[],
  namespace: string | undefined,
  columns: Column[],
): Promise<Map<string, (string | undefined)[]>> {
  const ns = namespace ? ['-n', namespace] : [];
  const firstOf = (text: string) => (text === '' ? undefined : text.split(' ')[0]);
  const template = `{range .items[*]}{.metadata.name}${columns.map((c) => `${SEP}{${c.jsonPath}}`).join('')}${RS}{end}`;
  const all = await runKubectl(cluster.kubeconfigPath, ['get', resource, ...ns, '-o', `jsonpath=${template}`]);
  const cells = new Map<string, (string | undefined)[]>();
  if (all.code === 0) {
    for (const record of all.stdout.split(RS).filter(Boolean)) {
      const [name, ...values] = record.split(SEP);
      cells.set(name, values.map(firstOf));
    }
    return cells;
  }
  for (const name of names) {
    const out: (string | undefined)[] = [];
    for (const column of columns) {
      const res = await runKubectl(cluster.kubeconfigPath, [
        'get',
        resource,
        name,
        ...ns,
        '-o',
        `jsonpath={${column.jsonPath}}`,
      ]);
      out.push(res.code === 0 ? firstOf(res.stdout) : undefined);
    }
    cells.set(name, out);
  }
  return cells;
}

function expectedCell(type: string, oracle: string | undefined): unknown {
  if (oracle === undefined) return null;
  switch (type) {
    case 'integer':
      return /^-?\d+$/.test(oracle) ? Number(oracle) : null;
    case 'number':
      return /^-?[\d.e+-]+$/.test(oracle) ? Number(oracle) : null;
    case 'boolean':
      return oracle === 'true' ? true : oracle === 'false' ? false : null;
    case 'date':
      return humanDuration(Date.now() - Date.parse(oracle));
    default:
      return oracle;
  }
}

describe('CRD printer columns match kubectl jsonpath on the same object', () => {
  const rounds = crdRounds();

  it('finds the CRDs', () => {
    expect(rounds[0].length).toBeGreaterThanOrEqual(40);
    const paths = rounds
      .flat()
      .flatMap((v) =>
        v.crd.spec.versions.flatMap((ver: any) => (ver.additionalPrinterColumns ?? []).map((c: Column) => c.jsonPath)),
      );
    expect(paths).toContain('.metadata.labels.shoot\\.gardener\\.cloud/status');
    expect(paths.some((p) => p.includes('[?(@.type=='))).toBe(true);
  });

  rounds.forEach((round, r) => {
    it(`round ${r + 1}: ${round.length} CRDs, every served version, a filled and an empty sample`, async () => {
      let checked = 0;
      let filled = 0;
      const applied = await runKubectl(cluster.kubeconfigPath, [
        'apply',
        '--server-side',
        '--force-conflicts',
        ...round.flatMap((v) => ['-f', v.file]),
      ]);
      expect(applied.code, applied.stderr).toBe(0);
      await kubectl(cluster.kubeconfigPath, [
        'wait',
        '--for=condition=Established',
        '--timeout=20s',
        ...round.map((v) => `crd/${v.crd.metadata.name}`),
      ]);
      for (const { crd } of round) {
        const { group, names, scope } = crd.spec;
        const namespace = scope === 'Namespaced' ? 'columns' : undefined;
        for (const version of crd.spec.versions.filter((v: any) => v.served)) {
          const columns: Column[] = (version.additionalPrinterColumns ?? []).map((c: any) => ({
            name: c.name,
            type: c.type,
            jsonPath: c.jsonPath,
          }));
          if (columns.length === 0) continue;
          const def = cluster.server.registry.get(group, version.name, names.plural)!;
          expect(def, `${crd.metadata.name} ${version.name} is served`).toBeDefined();
          const full: any = {
            apiVersion: `${group}/${def.storageVersion}`,
            kind: names.kind,
            metadata: { name: `full-${r}-${version.name}`, ...(namespace ? { namespace } : {}) },
          };
          columns.forEach((c, i) => {
            const path = steps(c.jsonPath);
            if (path) setPath(full, path, leaf(c.type, i, false), leaf(c.type, i, true));
          });
          const empty = {
            ...full,
            metadata: { name: `empty-${r}-${version.name}`, ...(namespace ? { namespace } : {}) },
          };
          const tables = new Map<string, unknown[]>();
          for (const object of [full, empty]) {
            const name = object.metadata.name;
            await cluster.server.storage.create(
              storageKey(def, namespace ?? '', name),
              object === empty ? { apiVersion: full.apiVersion, kind: full.kind, metadata: empty.metadata } : object,
            );
            const base = `/apis/${group}/${version.name}${namespace ? `/namespaces/${namespace}` : ''}/${names.plural}/${name}`;
            const res = await rawClient(cluster.server).send('GET', base, undefined, {
              accept: 'application/json;as=Table;v=v1;g=meta.k8s.io',
            });
            expect(res.status, res.body).toBe(200);
            const table = res.json();
            const offset = table.columnDefinitions.length - columns.length;
            expect(table.columnDefinitions.slice(offset).map((d: any) => d.name)).toEqual(columns.map((c) => c.name));
            tables.set(name, table.rows[0].cells.slice(offset));
          }
          const oracle = await kubectlCells(
            `${names.plural}.${version.name}.${group}`,
            [...tables.keys()],
            namespace,
            columns,
          );
          for (const [name, cells] of tables) {
            columns.forEach((c, i) => {
              const expected = expectedCell(c.type, oracle.get(name)?.[i]);
              expect(cells[i], `${crd.metadata.name} ${version.name} ${name} column ${c.name} (${c.jsonPath})`).toEqual(
                expected,
              );
              checked++;
              if (expected !== null) filled++;
            });
          }
        }
      }
      // Most cells of the filled samples have a value (a few paths point into lists the sample builder leaves out).
      expect(filled).toBeGreaterThan(checked / 3);
    });
  });

  it('kubectl get shoots -A shows the STATUS label', async () => {
    await kubectl(cluster.kubeconfigPath, [
      'apply',
      '--server-side',
      '--force-conflicts',
      '-f',
      join(workspaceRoot(), 'libs', 'api', 'crds', '10-crd-core.gardener.cloud_shoots.yaml'),
    ]);
    await kubectl(cluster.kubeconfigPath, [
      'wait',
      '--for=condition=Established',
      '--timeout=20s',
      'crd/shoots.core.gardener.cloud',
    ]);
    const def = cluster.server.registry.get('core.gardener.cloud', 'v1beta1', 'shoots')!;
    await cluster.server.storage.create(storageKey(def, 'columns', 'dev'), {
      apiVersion: 'core.gardener.cloud/v1beta1',
      kind: 'Shoot',
      metadata: {
        name: 'dev',
        namespace: 'columns',
        labels: { 'shoot.gardener.cloud/status': 'unhealthy' },
        creationTimestamp: SAMPLE_DATE,
      },
      spec: {
        cloudProfileName: 'local',
        region: 'local',
        provider: { type: 'local' },
        kubernetes: { version: '1.33.0' },
      },
    });
    const out = await kubectl(cluster.kubeconfigPath, ['get', 'shoots', '-A']);
    const [header, row] = out.trim().split('\n');
    // kubectl aligns columns: the cell starts where its header does (empty cells print as blanks).
    const statusAt = header.indexOf('STATUS');
    expect(statusAt).toBeGreaterThan(0);
    expect(row.slice(statusAt).split(/\s+/)[0]).toBe('unhealthy');
  });
});
