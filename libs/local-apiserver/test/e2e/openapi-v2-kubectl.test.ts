// kubectl v1.35 validates a `kind: List` client-side with the legacy OpenAPI v2 models, which it reads from
// `/openapi/v2` as gnostic protobuf: the real kubectl must accept a valid List and refuse an unknown field in one.
import { request } from 'node:https';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kubectl, runKubectl } from '@gardener-ts/test-support';
import { startTestCluster, type TestCluster } from '../../src/index.js';

let cluster: TestCluster;

beforeAll(async () => {
  cluster = await startTestCluster();
});
afterAll(async () => cluster?.stop());

const list = (replicasField: string) => `
apiVersion: v1
kind: List
items:
- apiVersion: v1
  kind: ConfigMap
  metadata: { name: listed, namespace: default }
  data: { a: "1" }
- apiVersion: apps/v1
  kind: Deployment
  metadata: { name: listed, namespace: default, labels: { app: listed } }
  spec:
    ${replicasField}: 1
    selector: { matchLabels: { app: listed } }
    template:
      metadata: { labels: { app: listed } }
      spec:
        containers: [{ name: app, image: nginx }]
`;

/** GET /openapi/v2 with the admin certificate, the body kept as bytes. */
function getOpenAPIV2(
  headers: Record<string, string>,
): Promise<{ status: number; headers: Record<string, unknown>; body: Buffer }> {
  const { credentials } = cluster.server;
  return new Promise((resolve, reject) => {
    const req = request(
      `${cluster.server.url}/openapi/v2`,
      { ca: credentials.ca.certPem, cert: credentials.admin.certPem, key: credentials.admin.keyPem, headers },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (d: Buffer) => chunks.push(d));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
      },
    );
    req.on('error', reject);
    req.end();
  });
}

const PROTOBUF = 'application/com.github.proto-openapi.spec.v2.v1.0+protobuf';

describe('/openapi/v2 content negotiation', () => {
  it("serves protobuf for both of kube-openapi's protobuf media types, JSON otherwise, and 406 for neither", async () => {
    for (const accept of [
      'application/com.github.proto-openapi.spec.v2@v1.0+protobuf',
      PROTOBUF,
      `application/json;q=0.5, ${PROTOBUF}`,
    ]) {
      const res = await getOpenAPIV2({ accept });
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe(PROTOBUF);
      // Document.swagger (field 1, length-delimited) = "2.0" comes first.
      expect([...res.body.subarray(0, 5)]).toEqual([0x0a, 3, ...Buffer.from('2.0')]);
    }
    for (const accept of ['application/json', '*/*', `application/json, ${PROTOBUF};q=0.9`]) {
      const res = await getOpenAPIV2({ accept });
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('application/json');
      expect(JSON.parse(res.body.toString()).swagger).toBe('2.0');
    }
    expect((await getOpenAPIV2({ accept: 'text/html' })).status).toBe(406);
  });

  it('answers 304 to a matching If-None-Match in either representation', async () => {
    const first = await getOpenAPIV2({ accept: PROTOBUF });
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^"[0-9A-F]{128}"$/);
    expect((await getOpenAPIV2({ accept: 'application/json' })).headers.etag).toBe(etag);
    const again = await getOpenAPIV2({ accept: PROTOBUF, 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    expect((await getOpenAPIV2({ accept: PROTOBUF, 'if-none-match': '"other"' })).status).toBe(200);
  });
});

describe('kubectl client-side validation of Lists from the protobuf /openapi/v2', () => {
  it('applies a List of a ConfigMap and a Deployment with validation on', async () => {
    const out = await kubectl(cluster.kubeconfigPath, ['apply', '-f', '-'], { input: list('replicas') });
    expect(out).toContain('configmap/listed created');
    expect(out).toContain('deployment.apps/listed created');
    const replicas = await kubectl(cluster.kubeconfigPath, [
      'get',
      'deployment',
      'listed',
      '-o',
      'jsonpath={.spec.replicas}',
    ]);
    expect(replicas).toBe('1');
  });

  it('refuses a List with an unknown field before sending it', async () => {
    const result = await runKubectl(cluster.kubeconfigPath, ['apply', '-f', '-'], { input: list('replicaz') });
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain('error validating "STDIN"');
    expect(result.stderr).toContain(
      'ValidationError(Deployment.spec): unknown field "replicaz" in io.k8s.api.apps.v1.DeploymentSpec',
    );
    expect(result.stderr).toContain('--validate=false');
  });
});
