// Benchmark of the built gardener-resource-manager: one ManagedResource of 1,000 objects (ConfigMaps, Secrets,
// ServiceAccounts, Roles, RoleBindings, Services — kinds that are healthy without a controller manager) applied from
// a source API server into a target API server. Measures the time until ResourcesApplied=True and until
// ResourcesHealthy=True, the API requests each server served by verb, and the write requests over a resync period
// once converged (must be zero).
// Run: npx nx build resource-manager && npx tsx --conditions=@gardener-ts/source bench/resource-manager/run.ts
// Environment: BENCH_OBJECTS (default 1000); BENCH_APP=<main.js> runs another build of the app; BENCH_DETAIL=1 adds
// requests by verb, resource and code; BENCH_LOG=<file> writes the app's log there.
import { writeFile } from 'node:fs/promises';
import { runKubectl, startProcess, waitFor } from '@gardener-ts/test-support';
import {
  b64,
  condition,
  ConfigMapK,
  getOrUndefined,
  MR,
  startLandscape,
} from '../../apps/resource-manager/test/harness.js';

const OBJECTS = Number(process.env.BENCH_OBJECTS ?? 1000);
const KINDS = [
  (i: number) =>
    `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm-${i}\n  namespace: bench\ndata:\n  key: value-${i}\n`,
  (i: number) =>
    `apiVersion: v1\nkind: Secret\nmetadata:\n  name: s-${i}\n  namespace: bench\ntype: Opaque\nstringData:\n  key: value-${i}\n`,
  (i: number) => `apiVersion: v1\nkind: ServiceAccount\nmetadata:\n  name: sa-${i}\n  namespace: bench\n`,
  (i: number) =>
    `apiVersion: rbac.authorization.k8s.io/v1\nkind: Role\nmetadata:\n  name: r-${i}\n  namespace: bench\nrules:\n- apiGroups: [""]\n  resources: [configmaps]\n  verbs: [get]\n`,
  (i: number) =>
    `apiVersion: rbac.authorization.k8s.io/v1\nkind: RoleBinding\nmetadata:\n  name: rb-${i}\n  namespace: bench\nroleRef:\n  apiGroup: rbac.authorization.k8s.io\n  kind: Role\n  name: r-${i}\nsubjects:\n- kind: ServiceAccount\n  name: sa-${i}\n  namespace: bench\n`,
  (i: number) =>
    `apiVersion: v1\nkind: Service\nmetadata:\n  name: svc-${i}\n  namespace: bench\nspec:\n  selector:\n    app: a${i}\n  ports:\n  - port: 80\n    targetPort: 8080\n`,
];

async function requestsByVerb(kubeconfig: string): Promise<Record<string, number>> {
  const { stdout } = await runKubectl(kubeconfig, ['get', '--raw', '/metrics']);
  const out: Record<string, number> = {};
  for (const line of stdout.split('\n')) {
    if (!line.startsWith('apiserver_request_total{')) continue;
    const resource = /resource="([^"]*)"/.exec(line)?.[1] ?? '';
    if (resource === 'leases' || resource === 'events') continue; // leader election, event recorder
    const verb = /verb="([^"]*)"/.exec(line)?.[1] ?? '';
    const code = /code="([^"]*)"/.exec(line)?.[1] ?? '';
    const n = Number(line.split(' ').pop());
    out[verb] = (out[verb] ?? 0) + n;
    if (process.env.BENCH_DETAIL) out[`${verb} ${resource} ${code}`] = (out[`${verb} ${resource} ${code}`] ?? 0) + n;
  }
  return out;
}
const diff = (a: Record<string, number>, b: Record<string, number>) =>
  Object.fromEntries(
    Object.keys({ ...a, ...b })
      .map((k) => [k, (b[k] ?? 0) - (a[k] ?? 0)])
      .filter(([, v]) => v !== 0),
  );
const WRITE_VERBS = [
  'POST',
  'PUT',
  'PATCH',
  'DELETE',
  'create',
  'update',
  'patch',
  'delete',
  'deletecollection',
  'apply',
];
const writes = (d: Record<string, number>) =>
  Object.entries(d)
    .filter(([k]) => WRITE_VERBS.includes(k))
    .reduce((s, [, v]) => s + v, 0);

const land = await startLandscape((c) => {
  c.controllers.garbageCollector = { enabled: false };
  // The bench measures the controller, not client-go's throttle: at Gardener's default target qps 100 / burst 130 the
  // 1,000 creates alone would take about 9 s, for Gardener and for us alike.
  c.targetClientConnection = { ...c.targetClientConnection, qps: 5000, burst: 5000 };
});
try {
  await land.tgt.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'bench' } });
  const docs = Array.from({ length: OBJECTS }, (_, i) => KINDS[i % KINDS.length](i)).join('---\n');
  await land.src.create({
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: 'bench', namespace: 'default' },
    data: { 'objects.yaml': b64(docs) },
  });
  if (process.env.BENCH_APP) {
    // Another build of the resource-manager (e.g. a copy of an older dist/apps/resource-manager/main.js), to compare
    // builds under the same machine load.
    land.app = startProcess(process.execPath, [process.env.BENCH_APP, '--config', land.configPath]);
    await waitFor('resource-manager to start', () => land.app!.output().includes('Resource manager started'), {
      timeoutMs: 20_000,
    });
  } else {
    await land.start();
  }
  const src0 = await requestsByVerb(land.source.kubeconfigPath);
  const tgt0 = await requestsByVerb(land.target.kubeconfigPath);

  const t0 = performance.now();
  await land.src.create({
    apiVersion: 'resources.gardener.cloud/v1alpha1',
    kind: 'ManagedResource',
    metadata: { name: 'bench', namespace: 'default' },
    spec: { secretRefs: [{ name: 'bench' }] },
  });
  let appliedMs = 0;
  let healthyMs = 0;
  while (!healthyMs) {
    const mr = await getOrUndefined(land.src, MR, 'default', 'bench');
    if (!appliedMs && condition(mr, 'ResourcesApplied')?.status === 'True') appliedMs = performance.now() - t0;
    if (appliedMs && condition(mr, 'ResourcesHealthy')?.status === 'True') healthyMs = performance.now() - t0;
    if (performance.now() - t0 > 120_000)
      throw new Error(`not converged after 120 s: ${JSON.stringify(mr?.status?.conditions)}`);
    await new Promise((r) => setTimeout(r, 20));
  }
  const src1 = await requestsByVerb(land.source.kubeconfigPath);
  const tgt1 = await requestsByVerb(land.target.kubeconfigPath);
  const count = (await land.tgt.listAll(ConfigMapK, { namespace: 'bench' })).length;

  // Converged: over more than one sync period (15 s for both controllers) there must be no write.
  await new Promise((r) => setTimeout(r, 2000));
  const src2 = await requestsByVerb(land.source.kubeconfigPath);
  const tgt2 = await requestsByVerb(land.target.kubeconfigPath);
  await new Promise((r) => setTimeout(r, 17_000));
  const src3 = await requestsByVerb(land.source.kubeconfigPath);
  const tgt3 = await requestsByVerb(land.target.kubeconfigPath);

  const result = {
    objects: OBJECTS,
    configMapsInTarget: count,
    appliedMs: Math.round(appliedMs),
    healthyMs: Math.round(healthyMs),
    requestsUntilHealthy: { source: diff(src0, src1), target: diff(tgt0, tgt1) },
    resyncWindowMs: 17_000,
    requestsDuringResync: { source: diff(src2, src3), target: diff(tgt2, tgt3) },
    writesDuringResync: writes(diff(src2, src3)) + writes(diff(tgt2, tgt3)),
  };
  console.log(JSON.stringify(result, null, 2));
  if (process.env.BENCH_LOG)
    await writeFile(
      process.env.BENCH_LOG,
      `mrCreatedAt ${new Date(Date.now() - performance.now() + t0).toISOString()}\n${land.app?.output() ?? ''}`,
    );
  if (result.writesDuringResync !== 0) process.exitCode = 1;
} finally {
  await land.stop();
}
