// Secret `stringData` as users write it (kubectl create/apply/replace/patch, server-side apply, protobuf bodies):
// kube merges it into `data` (base64, stringData wins) on every write and never stores or returns it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kubectl, runKubectl } from '@gardener-ts/test-support';
import { lookupKind, PROTOBUF_MAGIC, PROTOBUF_MEDIA_TYPE, protoRoot } from '../../src/http/protobuf.js';
import { startTestCluster, type TestCluster } from '../../src/index.js';
import { rawClient } from './raw-client.js';

let cluster: TestCluster;
let k: (args: string[], input?: string) => Promise<string>;

beforeAll(async () => {
  cluster = await startTestCluster();
  k = (args, input) => kubectl(cluster.kubeconfigPath, args, { input });
  await k(['create', 'namespace', 'sd']);
});
afterAll(async () => cluster?.stop());

const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');
const secretYaml = (name: string, stringData: string, data = '') => `apiVersion: v1
kind: Secret
metadata:
  name: ${name}
  namespace: sd
type: Opaque
${data}stringData:
${stringData}`;

const getSecret = async (name: string) => JSON.parse(await k(['get', 'secret', name, '-n', 'sd', '-o', 'json']));

describe('Secret stringData', () => {
  it('kubectl create -f merges stringData into data, stringData wins', async () => {
    const out = JSON.parse(
      await k(
        ['create', '-f', '-', '-o', 'json'],
        secretYaml(
          'created',
          '  user: admin\n  password: "s3cr3t ü"\n',
          `data:\n  user: ${b64('old')}\n  other: ${b64('kept')}\n`,
        ),
      ),
    );
    expect(out.stringData).toBeUndefined();
    const secret = await getSecret('created');
    expect(secret.stringData).toBeUndefined();
    expect(secret.data).toEqual({ user: b64('admin'), password: b64('s3cr3t ü'), other: b64('kept') });
    // Every decoded form agrees: kubectl's own jsonpath on data.
    expect(
      Buffer.from(
        await k(['get', 'secret', 'created', '-n', 'sd', '-o', 'jsonpath={.data.password}']),
        'base64',
      ).toString(),
    ).toBe('s3cr3t ü');
  });

  it('client-side kubectl apply, then a changed apply, keeps data in step', async () => {
    await k(['apply', '-f', '-'], secretYaml('applied', '  config.yaml: |\n    a: 1\n'));
    let secret = await getSecret('applied');
    expect(secret.stringData).toBeUndefined();
    expect(secret.data).toEqual({ 'config.yaml': b64('a: 1\n') });
    await k(['apply', '-f', '-'], secretYaml('applied', '  config.yaml: |\n    a: 2\n  extra: x\n'));
    secret = await getSecret('applied');
    expect(secret.stringData).toBeUndefined();
    expect(secret.data).toEqual({ 'config.yaml': b64('a: 2\n'), extra: b64('x') });
  });

  it('server-side apply merges stringData', async () => {
    await k(['apply', '--server-side', '-f', '-'], secretYaml('ssa', '  token: abc\n'));
    let secret = await getSecret('ssa');
    expect(secret.stringData).toBeUndefined();
    expect(secret.data).toEqual({ token: b64('abc') });
    await k(['apply', '--server-side', '-f', '-'], secretYaml('ssa', '  token: def\n'));
    secret = await getSecret('ssa');
    expect(secret.stringData).toBeUndefined();
    expect(secret.data.token).toBe(b64('def'));
  });

  it('kubectl replace and every patch type merge stringData', async () => {
    await k(['create', 'secret', 'generic', 'patched', '-n', 'sd', '--from-literal=a=1']);
    await k(['replace', '-f', '-'], secretYaml('patched', '  b: two\n', `data:\n  a: ${b64('1')}\n`));
    expect((await getSecret('patched')).data).toEqual({ a: b64('1'), b: b64('two') });
    await k(['patch', 'secret', 'patched', '-n', 'sd', '--type=merge', '-p', '{"stringData":{"c":"three"}}']);
    await k(['patch', 'secret', 'patched', '-n', 'sd', '--type=strategic', '-p', '{"stringData":{"a":"one"}}']);
    await k([
      'patch',
      'secret',
      'patched',
      '-n',
      'sd',
      '--type=json',
      '-p',
      '[{"op":"add","path":"/stringData","value":{"d":"four"}}]',
    ]);
    const secret = await getSecret('patched');
    expect(secret.stringData).toBeUndefined();
    expect(secret.data).toEqual({ a: b64('one'), b: b64('two'), c: b64('three'), d: b64('four') });
  });

  it('a protobuf body with stringData is merged too', async () => {
    const runtime = protoRoot().lookupType('k8s.io.apimachinery.pkg.runtime.Unknown');
    const secretType = lookupKind('v1', 'Secret')!;
    const raw = secretType
      .encode(secretType.fromObject({ metadata: { name: 'proto' }, stringData: { key: 'value' }, type: 'Opaque' }))
      .finish();
    const envelope = runtime
      .encode(runtime.fromObject({ typeMeta: { apiVersion: 'v1', kind: 'Secret' }, raw }))
      .finish();
    const res = await rawClient(cluster.server).send(
      'POST',
      '/api/v1/namespaces/sd/secrets',
      Buffer.concat([PROTOBUF_MAGIC, envelope]),
      {
        'content-type': PROTOBUF_MEDIA_TYPE,
        accept: 'application/json',
      },
    );
    expect(res.status).toBe(201);
    expect(res.json().stringData).toBeUndefined();
    const secret = await getSecret('proto');
    expect(secret.stringData).toBeUndefined();
    expect(secret.data).toEqual({ key: b64('value') });
  });

  it('invalid stringData keys are refused as kube refuses data keys', async () => {
    const res = await runKubectl(cluster.kubeconfigPath, ['create', '-f', '-'], {
      input: secretYaml('bad', '  "a b": x\n'),
    });
    expect(res.code).not.toBe(0);
    expect(res.stderr).toContain(
      'data[a b]: Invalid value: "a b": a valid config key must consist of alphanumeric characters',
    );
  });
});
