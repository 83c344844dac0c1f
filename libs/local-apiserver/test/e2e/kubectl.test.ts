// The real kubectl v1.35 against the local API server: the workflows Gardener and its users rely on.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kubectl, runKubectl, startProcess, waitFor, workspaceRoot, gardenerAsset } from '@gardener-ts/test-support';
import { startTestCluster, type TestCluster } from '../../src/index.js';
import { kubectlFails } from './kubectl-fails.js';

const crdDir = gardenerAsset('crds');
const crdFiles = readdirSync(crdDir).filter((f) => f.endsWith('.yaml'));

let cluster: TestCluster;
let k: (args: string[], input?: string) => Promise<string>;

beforeAll(async () => {
  cluster = await startTestCluster();
  k = (args, input) => kubectl(cluster.kubeconfigPath, args, { input });
});
afterAll(async () => cluster?.stop());

/** `kubectl create -f -` of a manifest (JSON; typed `kubectl create <kind>` sends protobuf, decoded for the kinds in http/protobuf-schema/). */
const manifest = (kind: string, name: string, namespace?: string, extra = '') =>
  `apiVersion: v1\nkind: ${kind}\nmetadata:\n  name: ${name}\n${namespace ? `  namespace: ${namespace}\n` : ''}${extra}`;

const deployment = (image: string, extra = '') => `
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: default
  labels: { app: web }
spec:
  replicas: 2
  selector: { matchLabels: { app: web } }
  template:
    metadata: { labels: { app: web } }
    spec:
      containers:
      - name: web
        image: ${image}
        ports: [{ containerPort: 8080 }]
        env: [{ name: A, value: "1" }]
${extra}`;

describe('kubectl against the local API server', () => {
  it('lists API resources from discovery', async () => {
    const out = await k(['api-resources']);
    for (const line of [
      /^pods\s+po\s+v1\s+true\s+Pod$/m,
      /^deployments\s+deploy\s+apps\/v1\s+true\s+Deployment$/m,
      /^namespaces\s+ns\s+v1\s+false\s+Namespace$/m,
      /^customresourcedefinitions\s+crd,crds\s+apiextensions.k8s.io\/v1\s+false\s+CustomResourceDefinition$/m,
    ]) {
      expect(out).toMatch(line);
    }
  });

  it('applies every Gardener CRD and serves it at once', async () => {
    await k(['apply', ...crdFiles.flatMap((file) => ['-f', join(crdDir, file)])]);
    await k([
      'wait',
      '--for',
      'condition=Established',
      '--timeout=20s',
      ...crdFiles.map(
        (f) =>
          `crd/${f
            .replace(/^10-crd-/, '')
            .replace(/\.yaml$/, '')
            .split('_')
            .reverse()
            .join('.')}`,
      ),
    ]);
    const out = await k(['api-resources', '--api-group=extensions.gardener.cloud']);
    expect(out).toMatch(/^infrastructures\s+infra\s+extensions.gardener.cloud\/v1alpha1\s+true\s+Infrastructure$/m);
  });

  it('creates custom resources and prints their additional columns', async () => {
    await k(['apply', '-f', gardenerAsset('examples', 'resource-manager', '20-managedresource.yaml')]);
    const out = await k(['get', 'managedresources', '-n', 'default']);
    expect(out.split('\n')[0]).toMatch(/^NAME\s+CLASS\s+APPLIED\s+HEALTHY\s+PROGRESSING\s+AGE$/);
    expect(out).toMatch(/^example\s/m);
  });

  it('explains built-in and custom types from OpenAPI', async () => {
    expect(await k(['explain', 'deployment.spec.replicas'])).toMatch(/FIELD:\s+replicas\s+<integer>/);
    expect(await k(['explain', 'managedresources.spec'])).toMatch(/secretRefs/);
  });

  it('applies twice with a correct three-way merge, and reports the change', async () => {
    await k(['apply', '-f', '-'], deployment('nginx:1.25'));
    const two = `${deployment('nginx:1.26')}`;
    expect(await k(['apply', '-f', '-'], two)).toMatch(/deployment.apps\/web configured/);
    expect(await k(['apply', '-f', '-'], two)).toMatch(/deployment.apps\/web unchanged/);
    const obj = JSON.parse(await k(['get', 'deploy', 'web', '-o', 'json']));
    expect(obj.spec.template.spec.containers).toHaveLength(1);
    expect(obj.spec.template.spec.containers[0]).toMatchObject({
      image: 'nginx:1.26',
      imagePullPolicy: 'IfNotPresent',
      env: [{ name: 'A', value: '1' }],
    });
    expect(obj.metadata.generation).toBe(2);
    // Removing a field from the applied config removes it from the object.
    await k(['apply', '-f', '-'], two.replace('        env: [{ name: A, value: "1" }]\n', ''));
    const after = JSON.parse(await k(['get', 'deploy', 'web', '-o', 'json']));
    expect(after.spec.template.spec.containers[0].env).toBeUndefined();
  });

  it('server-side applies with field ownership and conflicts', async () => {
    const cm = (value: string) =>
      `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: ssa, namespace: default}\ndata: {key: "${value}"}\n`;
    await k(['apply', '--server-side', '--field-manager=alice', '-f', '-'], cm('a'));
    const conflict = await runKubectl(
      cluster.kubeconfigPath,
      ['apply', '--server-side', '--field-manager=bob', '-f', '-'],
      { input: cm('b') },
    );
    expect(conflict.code).not.toBe(0);
    expect(conflict.stderr).toMatch(/conflict/i);
    await k(['apply', '--server-side', '--field-manager=bob', '--force-conflicts', '-f', '-'], cm('b'));
    const obj = JSON.parse(await k(['get', 'cm', 'ssa', '-o', 'json', '--show-managed-fields']));
    expect(obj.data.key).toBe('b');
    expect(obj.metadata.managedFields.map((m: { manager: string }) => m.manager)).toContain('bob');
  });

  it('patches with strategic merge, merge and JSON patches', async () => {
    await k([
      'patch',
      'deploy',
      'web',
      '-p',
      '{"spec":{"template":{"spec":{"containers":[{"name":"web","image":"nginx:1.27"}]}}}}',
    ]);
    await k(['patch', 'deploy', 'web', '--type=merge', '-p', '{"metadata":{"labels":{"tier":"front"}}}']);
    await k(['patch', 'deploy', 'web', '--type=json', '-p', '[{"op":"replace","path":"/spec/replicas","value":4}]']);
    const obj = JSON.parse(await k(['get', 'deploy', 'web', '-o', 'json']));
    expect(obj.spec.template.spec.containers[0].image).toBe('nginx:1.27');
    expect(obj.spec.template.spec.containers[0].ports).toEqual([{ containerPort: 8080, protocol: 'TCP' }]);
    expect(obj.metadata.labels).toEqual({ app: 'web', tier: 'front' });
    expect(obj.spec.replicas).toBe(4);
    await k([
      'patch',
      'managedresource',
      'example',
      '-n',
      'default',
      '--type=merge',
      '-p',
      '{"spec":{"keepObjects":true}}',
    ]);
    expect(
      JSON.parse(await k(['get', 'managedresource', 'example', '-n', 'default', '-o', 'json'])).spec.keepObjects,
    ).toBe(true);
  });

  it("refuses a patch whose metadata.uid names another object (the uid precondition of kube's PatchPodStatus)", async () => {
    await k(['create', 'configmap', 'uid-precondition', '--from-literal=a=1']);
    const uid = (await k(['get', 'cm', 'uid-precondition', '-o', 'jsonpath={.metadata.uid}'])).trim();
    const err = await kubectlFails(cluster.kubeconfigPath, [
      ...['patch', 'cm', 'uid-precondition', '--type=merge', '-p'],
      JSON.stringify({ metadata: { uid: 'not-its-uid' }, data: { a: '2' } }),
    ]);
    expect(err).toContain('Precondition failed: UID in precondition: not-its-uid');
    expect(await k(['get', 'cm', 'uid-precondition', '-o', 'jsonpath={.data.a}'])).toBe('1');
    await k([
      ...['patch', 'cm', 'uid-precondition', '--type=merge', '-p'],
      JSON.stringify({ metadata: { uid }, data: { a: '2' } }),
    ]);
    expect(await k(['get', 'cm', 'uid-precondition', '-o', 'jsonpath={.data.a}'])).toBe('2');
  });

  it('labels, annotates and scales', async () => {
    await k(['label', 'deploy', 'web', 'team=garden']);
    await k(['annotate', 'deploy', 'web', 'note=hello']);
    await k(['scale', 'deploy', 'web', '--replicas=3']);
    const obj = JSON.parse(await k(['get', 'deploy', 'web', '-o', 'json']));
    expect(obj.metadata.labels.team).toBe('garden');
    expect(obj.metadata.annotations.note).toBe('hello');
    expect(obj.spec.replicas).toBe(3);
    expect(await k(['get', 'deploy', '-l', 'team=garden', '-o', 'name'])).toBe('deployment.apps/web\n');
  });

  it('streams changes with get -w', async () => {
    const watch = startProcess(join(workspaceRoot(), 'tools/k8s-binaries/vendor/kubectl'), [
      '--kubeconfig',
      cluster.kubeconfigPath,
      'get',
      'configmaps',
      '-n',
      'default',
      '-w',
      '--output-watch-events',
    ]);
    await waitFor('the initial list', () => watch.output().includes('ssa'));
    await k(['create', '-f', '-'], manifest('ConfigMap', 'watched', 'default', 'data: {a: b}\n'));
    await waitFor('the ADDED event', () => /ADDED\s+watched/.test(watch.output()));
    await k(['delete', 'configmap', 'watched', '-n', 'default']);
    await waitFor('the DELETED event', () => /DELETED\s+watched/.test(watch.output()));
    await watch.stop();
  });

  it('keeps an object with a finalizer until the finalizer is removed', async () => {
    await k(['create', '-f', '-'], manifest('ConfigMap', 'held', 'default'));
    await k([
      'patch',
      'cm',
      'held',
      '-n',
      'default',
      '--type=merge',
      '-p',
      '{"metadata":{"finalizers":["example.com/hold"]}}',
    ]);
    await k(['delete', 'cm', 'held', '-n', 'default', '--wait=false']);
    const held = JSON.parse(await k(['get', 'cm', 'held', '-n', 'default', '-o', 'json']));
    expect(held.metadata.deletionTimestamp).toBeDefined();
    await k(['patch', 'cm', 'held', '-n', 'default', '--type=merge', '-p', '{"metadata":{"finalizers":null}}']);
    expect((await runKubectl(cluster.kubeconfigPath, ['get', 'cm', 'held', '-n', 'default'])).stderr).toMatch(
      /NotFound/,
    );
  });

  it('cascades deletes to dependents (background and orphan)', async () => {
    const owner = JSON.parse(await k(['create', '-f', '-', '-o', 'json'], manifest('ConfigMap', 'owner', 'default')));
    const dependent = (name: string) =>
      `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n  namespace: default\n  ownerReferences:\n  - {apiVersion: v1, kind: ConfigMap, name: owner, uid: ${owner.metadata.uid}}\n`;
    await k(['apply', '-f', '-'], dependent('dep-1'));
    await k(['delete', 'cm', 'owner', '-n', 'default']);
    await waitFor(
      'the dependent to be collected',
      async () => (await runKubectl(cluster.kubeconfigPath, ['get', 'cm', 'dep-1', '-n', 'default'])).code !== 0,
    );

    const owner2 = JSON.parse(await k(['create', '-f', '-', '-o', 'json'], manifest('ConfigMap', 'owner2', 'default')));
    await k(
      ['apply', '-f', '-'],
      dependent('dep-2').replace(owner.metadata.uid, owner2.metadata.uid).replace('name: owner,', 'name: owner2,'),
    );
    await k(['delete', 'cm', 'owner2', '-n', 'default', '--cascade=orphan']);
    await waitFor(
      'the owner to be gone',
      async () => (await runKubectl(cluster.kubeconfigPath, ['get', 'cm', 'owner2', '-n', 'default'])).code !== 0,
    );
    const orphan = JSON.parse(await k(['get', 'cm', 'dep-2', '-n', 'default', '-o', 'json']));
    expect(orphan.metadata.ownerReferences).toBeUndefined();
  });

  it('deletes a namespace with its content and refuses new content meanwhile', async () => {
    await k(['create', '-f', '-'], manifest('Namespace', 'doomed'));
    await k(['create', '-f', '-'], manifest('ConfigMap', 'c', 'doomed'));
    await k(['create', '-f', '-'], manifest('Secret', 's', 'doomed', 'stringData: {a: b}\n'));
    await k(['delete', 'namespace', 'doomed', '--timeout=20s']);
    expect((await runKubectl(cluster.kubeconfigPath, ['get', 'ns', 'doomed'])).stderr).toMatch(/NotFound/);
  });

  it('cascades a deleted CRD to its custom resources', async () => {
    await k(['delete', 'crd', 'managedresources.resources.gardener.cloud', '--timeout=20s']);
    const res = await runKubectl(cluster.kubeconfigPath, ['get', 'managedresources', '-A']);
    expect(res.code).not.toBe(0);
  });

  it('creates objects with typed kubectl commands (protobuf bodies)', async () => {
    await k(['create', 'namespace', 'pb']);
    expect(JSON.parse(await k(['get', 'namespace', 'pb', '-o', 'json'])).spec.finalizers).toEqual(['kubernetes']);
    await k(['create', 'configmap', 'c', '-n', 'pb', '--from-literal=a=b']);
    expect(JSON.parse(await k(['get', 'configmap', 'c', '-n', 'pb', '-o', 'json'])).data).toEqual({ a: 'b' });
    await k(['create', 'secret', 'generic', 's', '-n', 'pb', '--from-literal=a=b', '--type=example.com/t']);
    const secret = JSON.parse(await k(['get', 'secret', 's', '-n', 'pb', '-o', 'json']));
    expect(secret).toMatchObject({ type: 'example.com/t', data: { a: Buffer.from('b').toString('base64') } });
    expect(secret.metadata.generateName).toBeUndefined();
    await k(['create', 'serviceaccount', 'sa', '-n', 'pb']);
    expect(JSON.parse(await k(['get', 'serviceaccount', 'sa', '-n', 'pb', '-o', 'json'])).metadata.name).toBe('sa');
    await k(['create', 'deployment', 'd', '-n', 'pb', '--image=nginx', '--replicas=2']);
    const created = JSON.parse(await k(['get', 'deployment', 'd', '-n', 'pb', '-o', 'json']));
    expect(created.spec).toMatchObject({
      replicas: 2,
      template: { spec: { containers: [{ name: 'nginx', image: 'nginx' }] } },
    });
  });
});
