// Two answers kubectl users and GitOps tools rely on, with the real kubectl: an `immutable: true` ConfigMap or Secret
// keeps its content and stays immutable (kube's ValidateConfigMapUpdate / ValidateSecretUpdate: 422, `data:
// Forbidden: field is immutable when `immutable` is set`, also through a Secret's stringData and on a server dry
// run), and a server dry run of a create answers as the real create would (409 AlreadyExists for an existing name).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kubectl, runKubectl } from '@gardener-ts/test-support';
import { startTestCluster, type TestCluster } from '../../src/index.js';
import { kubectlFails } from './kubectl-fails.js';

let cluster: TestCluster;
let k: (args: string[], input?: string) => Promise<string>;
const fails = (args: string[], input?: string) => kubectlFails(cluster.kubeconfigPath, args, input);
const IMMUTABLE = 'Forbidden: field is immutable when `immutable` is set';

beforeAll(async () => {
  cluster = await startTestCluster();
  k = (args, input) => kubectl(cluster.kubeconfigPath, args, { input });
  await k(['create', 'namespace', 'imm']);
});
afterAll(async () => cluster?.stop());

const configMap = (data: string, immutable = 'true') =>
  `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: frozen\n  namespace: imm\nimmutable: ${immutable}\ndata:\n${data}`;
const secret = (password: string) =>
  `apiVersion: v1\nkind: Secret\nmetadata:\n  name: frozen\n  namespace: imm\nimmutable: true\nstringData:\n  password: ${password}\n`;

describe('immutable ConfigMaps and Secrets', () => {
  it('refuses changes of data and binaryData and turning immutable off; metadata stays writable', async () => {
    await k(['apply', '-f', '-'], configMap('  level: info\n'));
    expect(await fails(['apply', '-f', '-'], configMap('  level: debug\n'))).toContain(
      `The ConfigMap "frozen" is invalid: data: ${IMMUTABLE}`,
    );
    // Server-side apply takes the field from kubectl's client-side apply first; validation then refuses the change.
    expect(
      await fails(['apply', '--server-side', '--force-conflicts', '-f', '-'], configMap('  level: debug\n')),
    ).toContain(`The ConfigMap "frozen" is invalid: data: ${IMMUTABLE}`);
    expect(
      await fails(['patch', 'configmap', 'frozen', '-n', 'imm', '--type=merge', '-p', '{"immutable":false}']),
    ).toContain(`The ConfigMap "frozen" is invalid: immutable: ${IMMUTABLE}`);
    expect(
      await fails(['patch', 'configmap', 'frozen', '-n', 'imm', '--type=merge', '-p', '{"binaryData":{"b":"AAE="}}']),
    ).toContain(`The ConfigMap "frozen" is invalid: binaryData: ${IMMUTABLE}`);
    // Removing `immutable` is turning it off too.
    expect(
      await fails([
        'patch',
        'configmap',
        'frozen',
        '-n',
        'imm',
        '--type=json',
        '-p',
        '[{"op":"remove","path":"/immutable"}]',
      ]),
    ).toContain(`immutable: ${IMMUTABLE}`);
    await k(['label', 'configmap', 'frozen', '-n', 'imm', 'team=a']);
    await k(['apply', '-f', '-'], configMap('  level: info\n')); // unchanged content: accepted
    expect(await k(['get', 'configmap', 'frozen', '-n', 'imm', '-o', 'jsonpath={.data.level} {.immutable}'])).toBe(
      'info true',
    );
  });

  it('a ConfigMap that is not immutable yet can be made immutable together with a last change', async () => {
    await k(['create', 'configmap', 'thawed', '-n', 'imm', '--from-literal=level=info']);
    await k([
      'patch',
      'configmap',
      'thawed',
      '-n',
      'imm',
      '--type=merge',
      '-p',
      '{"immutable":true,"data":{"level":"warn"}}',
    ]);
    expect(
      await fails(['patch', 'configmap', 'thawed', '-n', 'imm', '--type=merge', '-p', '{"data":{"level":"info"}}']),
    ).toContain(`data: ${IMMUTABLE}`);
  });

  it('refuses a changed stringData of an immutable Secret, also on a server dry run, and accepts the same one', async () => {
    await k(['apply', '-f', '-'], secret('first'));
    expect(await fails(['apply', '-f', '-'], secret('second'))).toContain(
      `The Secret "frozen" is invalid: data: ${IMMUTABLE}`,
    );
    expect(await fails(['apply', '--dry-run=server', '-f', '-'], secret('second'))).toContain(
      `The Secret "frozen" is invalid: data: ${IMMUTABLE}`,
    );
    expect(
      await fails(['patch', 'secret', 'frozen', '-n', 'imm', '--type=merge', '-p', '{"immutable":false}']),
    ).toContain(`The Secret "frozen" is invalid: immutable: ${IMMUTABLE}`);
    // The same stringData is the same data once merged: a re-apply is no change.
    await k(['apply', '-f', '-'], secret('first'));
    const password = await k(['get', 'secret', 'frozen', '-n', 'imm', '-o', 'jsonpath={.data.password}']);
    expect(Buffer.from(password, 'base64').toString()).toBe('first');
  });
});

describe('a server dry run of a create', () => {
  it('answers 409 AlreadyExists for an existing name, as the create would', async () => {
    await k(['create', 'configmap', 'taken', '-n', 'imm', '--from-literal=a=b']);
    expect(
      await fails(['create', 'configmap', 'taken', '-n', 'imm', '--from-literal=a=c', '--dry-run=server']),
    ).toContain('failed to create configmap: configmaps "taken" already exists');
    expect(
      await fails(
        ['create', '--dry-run=server', '-f', '-'],
        'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: taken\n  namespace: imm\ndata:\n  a: c\n',
      ),
    ).toContain('Error from server (AlreadyExists): error when creating "STDIN": configmaps "taken" already exists');
    expect(await k(['get', 'configmap', 'taken', '-n', 'imm', '-o', 'jsonpath={.data.a}'])).toBe('b');
  });

  it('succeeds for a new name and stores nothing', async () => {
    expect(await k(['create', 'configmap', 'fresh', '-n', 'imm', '--from-literal=a=b', '--dry-run=server'])).toBe(
      'configmap/fresh created (server dry run)\n',
    );
    const res = await runKubectl(cluster.kubeconfigPath, ['get', 'configmap', 'fresh', '-n', 'imm']);
    expect(res.code).not.toBe(0);
    expect(res.stderr).toContain('configmaps "fresh" not found');
  });
});
