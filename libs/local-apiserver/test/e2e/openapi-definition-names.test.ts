// kubectl v1.35 names OpenAPI definitions in what it prints: its client-side validation (which it runs for a
// `kind: List`, from the gnostic protobuf /openapi/v2) says `unknown field "foo" in io.k8s.api.apps.v1.DeploymentSpec`
// and `kubectl explain` prints type names (`<[]Container>`, `<map[string]Quantity>`, `<IntOrString>`). The names
// must be kube's, nested types with their group. A single object goes through server-side field validation instead
// (the server advertises fieldValidation in /openapi/v3), whose message names the field path.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kubectl, runKubectl } from '@gardener-ts/test-support';
import { startTestCluster, type TestCluster } from '../../src/index.js';

let cluster: TestCluster;

beforeAll(async () => {
  cluster = await startTestCluster();
});
afterAll(async () => cluster?.stop());

const deployment = (name: string, { spec = '', container = '' } = {}) => `
  apiVersion: apps/v1
  kind: Deployment
  metadata: { name: ${name}, namespace: default, labels: { app: ${name} } }
  spec:
    ${spec}
    selector: { matchLabels: { app: ${name} } }
    strategy: { type: RollingUpdate, rollingUpdate: { maxSurge: 1, maxUnavailable: 25% } }
    template:
      metadata: { labels: { app: ${name} } }
      spec:
        containers:
        - name: app
          image: nginx
          resources: { limits: { cpu: 1, memory: 64Mi }, requests: { cpu: 500m } }
          ${container}
`;
const list = (...items: string[]) =>
  `apiVersion: v1\nkind: List\nitems:\n${items.map((i) => `-${i.slice(2)}`).join('')}`;

/** `kubectl apply --validate=strict` of a List of the Deployment: kubectl's client-side validation refuses it. */
async function refusedClientSide(item: string): Promise<string> {
  const result = await runKubectl(cluster.kubeconfigPath, ['apply', '--validate=strict', '-f', '-'], {
    input: list(item),
  });
  expect(result.code).not.toBe(0);
  return result.stderr;
}

describe('kubectl client-side validation names the definitions like kube', () => {
  it('refuses an unknown field of a DeploymentSpec, naming io.k8s.api.apps.v1.DeploymentSpec', async () => {
    expect(await refusedClientSide(deployment('listed-spec', { spec: 'foo: 1' }))).toContain(
      'error validating "STDIN": error validating data: ValidationError(Deployment.spec): unknown field "foo" in io.k8s.api.apps.v1.DeploymentSpec; if you choose to ignore these errors, turn validation off with --validate=false',
    );
  });

  it('names core types nested in a Deployment by the core group', async () => {
    expect(await refusedClientSide(deployment('listed-container', { container: 'imag: typo' }))).toContain(
      'ValidationError(Deployment.spec.template.spec.containers[0]): unknown field "imag" in io.k8s.api.core.v1.Container',
    );
  });

  it('accepts a valid List: IntOrString and Quantity values of either type pass', async () => {
    const out = await kubectl(cluster.kubeconfigPath, ['apply', '--validate=strict', '-f', '-'], {
      input: list(deployment('listed-ok', { spec: 'replicas: 1' })),
    });
    expect(out).toContain('deployment.apps/listed-ok created');
    const stored =
      'jsonpath={.spec.template.spec.containers[0].resources.limits.cpu} {.spec.strategy.rollingUpdate.maxSurge}';
    expect(await kubectl(cluster.kubeconfigPath, ['get', 'deployment', 'listed-ok', '-o', stored])).toBe('1 1');
  });
});

describe('server-side field validation of a single Deployment', () => {
  it('refuses the unknown field with strict decoding, naming its path', async () => {
    const result = await runKubectl(cluster.kubeconfigPath, ['apply', '--validate=strict', '-f', '-'], {
      input: deployment('single', { spec: 'foo: 1' }).replace(/^ {2}/gm, ''),
    });
    expect(result.code).not.toBe(0);
    // Not kubectl's client-side validation: the server refused it.
    expect(result.stderr).not.toContain('ValidationError(');
    expect(result.stderr).toMatch(
      /^Error from server \(BadRequest\): error when creating "STDIN": Deployment in version "v1" cannot be handled as a Deployment: strict decoding error: unknown field "spec\.foo"$/m,
    );
  });
});

describe('kubectl explain prints kube type names', () => {
  it('explains deployment.spec.template.spec.containers', async () => {
    const out = await kubectl(cluster.kubeconfigPath, ['explain', 'deployment.spec.template.spec.containers']);
    expect(out).toMatch(/^GROUP:\s+apps$/m);
    expect(out).toMatch(/^KIND:\s+Deployment$/m);
    expect(out).toMatch(/^FIELD: containers <\[\]Container>$/m);
    expect(out).toMatch(/^ {2}name\t<string> -required-$/m);
    expect(out).toMatch(/^ {2}resources\t<ResourceRequirements>$/m);
    expect(out).toMatch(/^ {2}env\t<\[\]EnvVar>$/m);
  });

  it('prints IntOrString, Quantity, LabelSelector and RawExtension by name', async () => {
    const explain = (path: string) => kubectl(cluster.kubeconfigPath, ['explain', path]);
    expect(await explain('deployment.spec.strategy.rollingUpdate')).toMatch(/^ {2}maxSurge\t<IntOrString>$/m);
    expect(await explain('deployment.spec')).toMatch(/^ {2}selector\t<LabelSelector> -required-$/m);
    expect(await explain('pod.spec.containers.resources')).toMatch(/^ {2}limits\t<map\[string\]Quantity>$/m);
    expect(await explain('controllerrevision')).toMatch(/^ {2}data\t<RawExtension>$/m);
  });

  it('explains from the v2 document too', async () => {
    const out = await kubectl(cluster.kubeconfigPath, [
      'explain',
      'deployment.spec.template.spec.containers',
      '--output=plaintext-openapiv2',
    ]);
    expect(out).toMatch(/^RESOURCE: containers <\[\]Object>$/m);
    expect(out).toMatch(/^ {3}image\t<string>$/m);
  });
});
