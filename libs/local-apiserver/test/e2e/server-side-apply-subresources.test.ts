// Server-side apply through the status and scale subresources with the real kubectl v1.35: managedFields entries
// carry `subresource`, status applies own status only, and /scale ownership of spec.replicas conflicts as in kube.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kubectl, runKubectl } from '@gardener-ts/test-support';
import { startTestCluster, type TestCluster } from '../../src/index.js';
import { rawClient } from './raw-client.js';
import { widgetCRD } from './widget-crd.js';

let cluster: TestCluster;
let k: (args: string[], input?: string) => Promise<string>;
const run = (args: string[], input?: string) => runKubectl(cluster.kubeconfigPath, args, { input });
/** kubectl v1.35 has no `patch --type=apply`: the apply PATCH as a client library sends it. */
const applyPatch = (path: string, body: unknown, query: string) =>
  rawClient(cluster.server).send('PATCH', `${path}?${query}`, JSON.stringify(body), {
    'content-type': 'application/apply-patch+yaml',
  });
const WIDGET = '/apis/example.com/v1/namespaces/default/widgets/w';

const crd = widgetCRD({
  subresources: { status: {}, scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas' } },
  schema: {
    openAPIV3Schema: {
      type: 'object',
      properties: {
        spec: { type: 'object', properties: { replicas: { type: 'integer' }, color: { type: 'string' } } },
        status: { type: 'object', properties: { phase: { type: 'string' }, replicas: { type: 'integer' } } },
      },
    },
  },
});

const widget = (spec: string, status = '') =>
  `apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w, namespace: default}\nspec: ${spec}\n${status ? `status: ${status}\n` : ''}`;

const deployment = (spec: string, status = '') => `
apiVersion: apps/v1
kind: Deployment
metadata: {name: ssa, namespace: default}
spec:
  ${spec}
  selector: { matchLabels: { app: ssa } }
  template:
    metadata: { labels: { app: ssa } }
    spec: { containers: [{ name: web, image: nginx }] }
${status ? `status: ${status}\n` : ''}`;

interface Entry {
  manager: string;
  operation: string;
  apiVersion: string;
  subresource?: string;
  fieldsV1: Record<string, any>;
}

async function getManaged(resource: string, name: string): Promise<{ object: any; entries: Entry[] }> {
  const object = JSON.parse(await k(['get', resource, name, '-n', 'default', '-o', 'json', '--show-managed-fields']));
  return { object, entries: object.metadata.managedFields ?? [] };
}

beforeAll(async () => {
  cluster = await startTestCluster();
  k = (args, input) => kubectl(cluster.kubeconfigPath, args, { input });
  await k(['apply', '-f', '-'], JSON.stringify(crd));
  await k(['wait', '--for', 'condition=Established', '--timeout=20s', 'crd/widgets.example.com']);
});
afterAll(async () => cluster?.stop());

describe('server-side apply through subresources with kubectl', () => {
  it('applies status of a custom resource through --subresource=status and records it apart', async () => {
    await k(
      ['apply', '--server-side', '--field-manager=owner', '-f', '-'],
      widget('{replicas: 1, color: red}', '{phase: Ignored}'),
    );
    let { object } = await getManaged('widget', 'w');
    expect(object.status).toBeUndefined();

    await k(
      ['apply', '--server-side', '--subresource=status', '--field-manager=ctrl', '-f', '-'],
      widget('{replicas: 9, color: blue}', '{phase: Ready}'),
    );
    const yaml = await k(['get', 'widget', 'w', '-n', 'default', '-o', 'yaml', '--show-managed-fields']);
    expect(yaml).toMatch(/^ {4}subresource: status$/m);
    const got = await getManaged('widget', 'w');
    object = got.object;
    expect(object.spec).toEqual({ replicas: 1, color: 'red' });
    expect(object.status).toEqual({ phase: 'Ready' });
    const ctrl = got.entries.find((e) => e.manager === 'ctrl')!;
    expect(ctrl).toMatchObject({ operation: 'Apply', apiVersion: 'example.com/v1', subresource: 'status' });
    expect(ctrl.fieldsV1).toEqual({ 'f:status': { 'f:phase': {} } });
    const owner = got.entries.find((e) => e.manager === 'owner')!;
    expect(owner.subresource).toBeUndefined();
    expect(owner.fieldsV1['f:status']).toBeUndefined();
  });

  it('conflicts a second status manager and lets --force-conflicts take the field', async () => {
    const failed = await run(
      ['apply', '--server-side', '--subresource=status', '--field-manager=other', '-f', '-'],
      widget('{}', '{phase: Failed}'),
    );
    expect(failed.code).not.toBe(0);
    expect(failed.stderr).toContain(
      'Apply failed with 1 conflict: conflict with "ctrl" with subresource "status": .status.phase',
    );
    // A main-resource applier of spec does not conflict with status managers, and its status is ignored.
    await k(
      ['apply', '--server-side', '--field-manager=ctrl', '-f', '-'],
      widget('{replicas: 1, color: red}', '{phase: Main}'),
    );
    expect((await getManaged('widget', 'w')).object.status).toEqual({ phase: 'Ready' });

    await k(
      ['apply', '--server-side', '--subresource=status', '--field-manager=other', '--force-conflicts', '-f', '-'],
      widget('{}', '{phase: Failed}'),
    );
    const { object, entries } = await getManaged('widget', 'w');
    expect(object.status).toEqual({ phase: 'Failed' });
    expect(entries.find((e) => e.manager === 'ctrl' && e.subresource === 'status')).toBeUndefined();
    expect(entries.find((e) => e.manager === 'other')).toMatchObject({
      subresource: 'status',
      fieldsV1: { 'f:status': { 'f:phase': {} } },
    });
    // Same manager name through the main resource and through status: two entries.
    expect(entries.filter((e) => e.manager === 'ctrl').map((e) => e.subresource ?? '')).toEqual(['']);
  });

  it('removes a status field the status applier drops (apply PATCH on /status)', async () => {
    const status = (s: Record<string, unknown>) => ({ apiVersion: 'example.com/v1', kind: 'Widget', status: s });
    expect(
      (await applyPatch(`${WIDGET}/status`, status({ phase: 'Failed', replicas: 1 }), 'fieldManager=other')).status,
    ).toBe(200);
    expect((await getManaged('widget', 'w')).object.status).toEqual({ phase: 'Failed', replicas: 1 });
    const res = await applyPatch(`${WIDGET}/status`, status({ replicas: 1 }), 'fieldManager=other');
    expect(res.status).toBe(200);
    expect(res.json().status).toEqual({ replicas: 1 });
    expect((await getManaged('widget', 'w')).object.status).toEqual({ replicas: 1 });
    const missing = await applyPatch(
      '/apis/example.com/v1/namespaces/default/widgets/nope/status',
      status({}),
      'fieldManager=other',
    );
    expect(missing.status).toBe(404);
  });

  it('applies a Scale through /scale and records spec.replicas under the scale manager', async () => {
    const scale = {
      apiVersion: 'autoscaling/v1',
      kind: 'Scale',
      metadata: { name: 'w', namespace: 'default' },
      spec: { replicas: 4 },
    };
    const failed = await applyPatch(`${WIDGET}/scale`, scale, 'fieldManager=hpa');
    expect(failed.status).toBe(409);
    expect(failed.json().message).toBe(
      'Apply failed with 2 conflicts: conflicts with "ctrl":\n- .spec.replicas\nconflicts with "owner":\n- .spec.replicas',
    );
    const forced = await applyPatch(`${WIDGET}/scale`, scale, 'fieldManager=hpa&force=true');
    expect(forced.status).toBe(200);
    expect(forced.json()).toMatchObject({ kind: 'Scale', apiVersion: 'autoscaling/v1', spec: { replicas: 4 } });
    const { object, entries } = await getManaged('widget', 'w');
    expect(object.spec).toEqual({ replicas: 4, color: 'red' });
    expect(entries.find((e) => e.manager === 'hpa')).toMatchObject({
      operation: 'Apply',
      apiVersion: 'example.com/v1',
      subresource: 'scale',
      fieldsV1: { 'f:spec': { 'f:replicas': {} } },
    });
    expect(entries.find((e) => e.manager === 'owner')!.fieldsV1['f:spec']['f:replicas']).toBeUndefined();
    const back = await run(
      ['apply', '--server-side', '--field-manager=owner', '-f', '-'],
      widget('{replicas: 1, color: red}'),
    );
    expect(back.code).not.toBe(0);
    expect(back.stderr).toContain(
      'Apply failed with 1 conflict: conflict with "hpa" with subresource "scale": .spec.replicas',
    );
  });

  it('applies Deployment status with a subresource entry', async () => {
    await k(
      ['apply', '--server-side', '--field-manager=owner', '-f', '-'],
      deployment('replicas: 1', '{collisionCount: 7}'),
    );
    expect((await getManaged('deploy', 'ssa')).object.status?.collisionCount).toBeUndefined();
    await k(
      ['apply', '--server-side', '--subresource=status', '--field-manager=ctrl', '-f', '-'],
      deployment('replicas: 6', '{collisionCount: 2}'),
    );
    const { object, entries } = await getManaged('deploy', 'ssa');
    expect(object.spec.replicas).toBe(1);
    expect(object.status.collisionCount).toBe(2);
    expect(entries.find((e) => e.manager === 'ctrl')).toMatchObject({
      operation: 'Apply',
      apiVersion: 'apps/v1',
      subresource: 'status',
    });
    expect(entries.find((e) => e.manager === 'ctrl')!.fieldsV1['f:status']['f:collisionCount']).toEqual({});
  });

  it('conflicts a server-side apply of spec.replicas with kubectl scale', async () => {
    await k(['scale', 'deploy', 'ssa', '-n', 'default', '--replicas=3']);
    const { object, entries } = await getManaged('deploy', 'ssa');
    expect(object.spec.replicas).toBe(3);
    const scaler = entries.find((e) => e.subresource === 'scale')!;
    expect(scaler.manager).toBe('kubectl'); // kubectl scale sends no fieldManager: the user agent's prefix
    expect(scaler).toMatchObject({
      operation: 'Update',
      apiVersion: 'apps/v1',
      fieldsV1: { 'f:spec': { 'f:replicas': {} } },
    });
    const failed = await run(
      ['apply', '--server-side', '--field-manager=gitops', '-f', '-'],
      deployment('replicas: 5'),
    );
    expect(failed.code).not.toBe(0);
    expect(failed.stderr).toContain(
      `Apply failed with 1 conflict: conflict with "${scaler.manager}" with subresource "scale" using apps/v1: .spec.replicas`,
    );
    await k(
      ['apply', '--server-side', '--field-manager=gitops', '--force-conflicts', '-f', '-'],
      deployment('replicas: 5'),
    );
    const after = await getManaged('deploy', 'ssa');
    expect(after.object.spec.replicas).toBe(5);
    expect(after.entries.find((e) => e.subresource === 'scale')).toBeUndefined();
  });
});
