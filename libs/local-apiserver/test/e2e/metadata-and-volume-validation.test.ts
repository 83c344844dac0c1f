// kube's validation as kubectl users meet it: label and annotation keys and values on every object (create, update,
// patch, apply; built-ins and custom resources alike), and a pod's volumes and mounts (names are DNS labels, one
// source each, mounts of existing volumes, relative subPaths without '..'): 422 with kube's field paths and messages.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kubectl } from '@gardener-ts/test-support';
import { startTestCluster, type TestCluster } from '../../src/index.js';
import { kubectlFails } from './kubectl-fails.js';

let cluster: TestCluster;
let k: (args: string[], input?: string) => Promise<string>;
const fails = (args: string[], input?: string) => kubectlFails(cluster.kubeconfigPath, args, input);

/** `kubectl patch configmap cm --type=merge` of the given labels, expected to fail; the error output. */
const patchLabelsFails = (labels: Record<string, string>) =>
  fails(['patch', 'configmap', 'cm', '-n', 'val', '--type=merge', '-p', JSON.stringify({ metadata: { labels } })]);

beforeAll(async () => {
  cluster = await startTestCluster();
  k = (args, input) => kubectl(cluster.kubeconfigPath, args, { input });
  await k(['create', 'namespace', 'val']);
});
afterAll(async () => cluster?.stop());

const longName = 'shoot--garden-project-with-a-long-name--and-a-long-shoot-name-x';

describe('label and annotation validation', () => {
  it('refuses a label key whose name part is longer than 63 characters, on create', async () => {
    const key = `networking.resources.gardener.cloud/to-${longName}-kube-apiserver-tcp-443`;
    const stderr = await fails(
      ['create', '-f', '-'],
      `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: long\n  namespace: val\n  labels:\n    ${key}: allowed\n`,
    );
    expect(stderr).toContain(
      `The ConfigMap "long" is invalid: metadata.labels: Invalid value: "${key}": name part must be no more than 63 characters`,
    );
  });

  it('refuses invalid keys and values on label, annotate, patch and apply of existing objects', async () => {
    await k(['create', 'configmap', 'cm', '-n', 'val']);
    expect(await fails(['label', 'configmap', 'cm', '-n', 'val', 'a/b/c=x'])).toContain(
      `metadata.labels: Invalid value: "a/b/c": a qualified name must consist of`,
    );
    // kubectl label checks values itself with kube's message; the server must say the same to other clients.
    expect(await patchLabelsFails({ ok: '-bad-' })).toContain(
      `metadata.labels: Invalid value: "-bad-": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')`,
    );
    expect(await fails(['annotate', 'configmap', 'cm', '-n', 'val', 'Bad_Prefix.com/x=1'])).toContain(
      'metadata.annotations: Invalid value: "Bad_Prefix.com/x": prefix part a lowercase RFC 1123 subdomain',
    );
    expect(await patchLabelsFails({ 'x/': 'y' })).toContain(
      'metadata.labels: Invalid value: "x/": name part must be non-empty',
    );
    expect(
      await fails(
        ['apply', '--server-side', '-f', '-'],
        `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\n  namespace: val\n  labels:\n    "${'v'.repeat(64)}": x\n`,
      ),
    ).toContain('name part must be no more than 63 characters');
    // Upper-case annotation keys are fine (kube lower-cases them before the check); the object is unchanged by the refusals.
    await k(['annotate', 'configmap', 'cm', '-n', 'val', 'Example.com/Upper=1']);
    const cm = JSON.parse(await k(['get', 'configmap', 'cm', '-n', 'val', '-o', 'json']));
    expect(cm.metadata.labels).toBeUndefined();
    expect(cm.metadata.annotations).toEqual({ 'Example.com/Upper': '1' });
  });

  it('refuses annotations over 256 KiB in total', async () => {
    const big = 'x'.repeat(256 * 1024);
    expect(
      await fails(
        ['create', '-f', '-'],
        JSON.stringify({
          apiVersion: 'v1',
          kind: 'ConfigMap',
          metadata: { name: 'big', namespace: 'val', annotations: { a: big } },
        }),
      ),
    ).toContain('metadata.annotations: Too long: may not be more than 262144 bytes');
  });
});

describe('label keys in specs', () => {
  // The NetworkPolicy the resource-manager's controller writes for a Service in a long shoot namespace: a real API
  // server refuses the unshortened pod label key in the peer's selector, so ours must as well.
  const key = `networking.resources.gardener.cloud/to-${longName}-kube-apiserver-tcp-443`;

  it('refuses a NetworkPolicy whose peer selects pods by a label key longer than 63 characters', async () => {
    const policy = `apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata:
  name: ingress-to-kube-apiserver-tcp-443
  namespace: val
spec:
  podSelector:
    matchLabels: { app: kubernetes }
  ingress:
  - from:
    - namespaceSelector: {}
      podSelector:
        matchLabels: { "${key}": allowed }
  policyTypes: [Ingress]
`;
    expect(await fails(['apply', '-f', '-'], policy)).toContain(
      `The NetworkPolicy "ingress-to-kube-apiserver-tcp-443" is invalid: spec.ingress[0].from[0].podSelector.matchLabels: Invalid value: "${key}": name part must be no more than 63 characters`,
    );
    expect(await fails(['apply', '--server-side', '-f', '-'], policy)).toContain('name part must be no more than 63');
  });

  it("refuses such a key in a Deployment's pod template labels", async () => {
    const stderr = await fails(
      ['create', '-f', '-'],
      `apiVersion: apps/v1
kind: Deployment
metadata: { name: d, namespace: val }
spec:
  selector: { matchLabels: { app: d } }
  template:
    metadata:
      labels: { app: d, "${key}": allowed }
    spec:
      containers: [{ name: c, image: busybox }]
`,
    );
    expect(stderr).toContain(
      `spec.template.metadata.labels: Invalid value: "${key}": name part must be no more than 63 characters`,
    );
  });
});

describe('name validation', () => {
  it('words invalid names as kube does, Services as DNS-1035 labels', async () => {
    expect(await fails(['create', 'service', 'clusterip', '1st', '--tcp=80', '-n', 'val'])).toContain(
      `metadata.name: Invalid value: "1st": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')`,
    );
    expect(await fails(['create', 'configmap', 'Upper', '-n', 'val'])).toContain(
      `metadata.name: Invalid value: "Upper": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
    );
  });
});

const pod = (volumes: string, mounts: string) => `apiVersion: v1
kind: Pod
metadata:
  name: p
  namespace: val
spec:
  containers:
  - name: c
    image: busybox
    volumeMounts:
${mounts}
  volumes:
${volumes}`;

describe('pod volume validation', () => {
  it('refuses a volume name that is not a DNS label', async () => {
    const stderr = await fails(
      ['create', '-f', '-'],
      pod(`  - name: ../../x\n    configMap: { name: cm }\n`, `    - { name: ../../x, mountPath: /etc/x }\n`),
    );
    expect(stderr).toContain(
      `spec.volumes[0].name: Invalid value: "../../x": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character`,
    );
    expect(stderr).toContain('spec.containers[0].volumeMounts[0].name: Not found: "../../x"');
  });

  it('refuses duplicate names, a volume with two sources, a mount of a missing volume and escaping subPaths', async () => {
    const stderr = await fails(
      ['create', '-f', '-'],
      pod(
        `  - { name: a, emptyDir: {} }\n  - { name: a, emptyDir: {} }\n  - { name: b, emptyDir: {}, secret: { secretName: s } }\n`,
        `    - { name: a, mountPath: /a, subPath: ../../etc }\n    - { name: nope, mountPath: /a }\n    - { name: a, mountPath: /c, subPathExpr: /abs }\n`,
      ),
    );
    for (const line of [
      'spec.volumes[1].name: Duplicate value: "a"',
      'spec.volumes[2].secret: Forbidden: may not specify more than 1 volume type',
      `spec.containers[0].volumeMounts.subPath: Invalid value: "../../etc": must not contain '..'`,
      'spec.containers[0].volumeMounts[1].name: Not found: "nope"',
      'spec.containers[0].volumeMounts[1].mountPath: Invalid value: "/a": must be unique',
      'spec.containers[0].volumeMounts.subPathExpr: Invalid value: "/abs": must be a relative path',
    ]) {
      expect(stderr).toContain(line);
    }
  });

  it('refuses secret item paths that step out, also in a Deployment template', async () => {
    const stderr = await fails(
      ['create', '-f', '-'],
      `apiVersion: apps/v1
kind: Deployment
metadata: { name: d, namespace: val }
spec:
  selector: { matchLabels: { app: d } }
  template:
    metadata: { labels: { app: d } }
    spec:
      containers: [{ name: c, image: busybox, volumeMounts: [{ name: s, mountPath: /s }] }]
      volumes: [{ name: s, secret: { secretName: s, items: [{ key: k, path: ../../../etc/passwd }] } }]
`,
    );
    expect(stderr).toContain(
      `spec.template.spec.volumes[0].secret.items[0].path: Invalid value: "../../../etc/passwd": must not contain '..'`,
    );
  });

  it('accepts ordinary volumes', async () => {
    await k(
      ['create', '-f', '-'],
      pod(
        `  - { name: config, configMap: { name: cm, items: [{ key: a, path: sub/a.yaml }] } }\n  - { name: data, emptyDir: {} }\n`,
        `    - { name: config, mountPath: /etc/config }\n    - { name: data, mountPath: /data, subPath: sub/dir }\n`,
      ),
    );
    expect(await k(['get', 'pod', 'p', '-n', 'val', '-o', 'jsonpath={.spec.volumes[*].name}'])).toBe(
      'config data kube-api-access-' +
        (await k(['get', 'pod', 'p', '-n', 'val', '-o', 'jsonpath={.spec.volumes[2].name}'])).slice(
          'kube-api-access-'.length,
        ),
    );
  });
});
