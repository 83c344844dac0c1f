// Property tests with certificates: client certificates not signed by the cluster CA never authenticate, whatever
// their subject claims; garbage CSRs never crash the signer and are marked Failed, never issued.
import { request } from 'node:https';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '@gardener-ts/test-support';
import { LocalApiServer } from '../../src/index.js';
import { createCA, issueCertificate } from '../../src/pki/certs.js';
import { rawClient } from './raw-client.js';

let server: LocalApiServer;
let api: ReturnType<typeof rawClient>;

beforeAll(async () => {
  server = await LocalApiServer.start();
  api = rawClient(server);
});
afterAll(async () => server?.stop());

function statusWith(cert: { certPem: string; keyPem: string }): Promise<number> {
  return new Promise((resolve, reject) => {
    request(
      `${server.url}/api/v1/namespaces`,
      { ca: server.credentials.ca.certPem, cert: cert.certPem, key: cert.keyPem },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    )
      .on('error', reject)
      .end();
  });
}

const name = fc.stringMatching(/^[a-zA-Z0-9:._-]{1,40}$/);

describe('certificates (property)', () => {
  it('a client certificate from a foreign CA never authenticates, whatever it claims', async () => {
    const foreign = await createCA('kubernetes-ca-lookalike');
    await fc.assert(
      fc.asyncProperty(name, fc.array(name, { maxLength: 3 }), async (cn, groups) => {
        const cert = await issueCertificate(foreign, {
          commonName: cn,
          organizations: [...groups, 'system:masters'],
          usage: 'client',
        });
        return (await statusWith(cert)) === 401;
      }),
      { numRuns: 25 },
    );
    // The same claims from the cluster CA do authenticate (the property is not vacuous).
    expect(await statusWith(server.credentials.admin)).toBe(200);
  });

  it('garbage certificate requests are marked Failed, never issued, and the server keeps serving', async () => {
    let n = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.uint8Array({ maxLength: 300 }).map((b) => Buffer.from(b).toString('base64')),
          fc
            .string()
            .map((s) =>
              Buffer.from(`-----BEGIN CERTIFICATE REQUEST-----\n${s}\n-----END CERTIFICATE REQUEST-----\n`).toString(
                'base64',
              ),
            ),
        ),
        async (request) => {
          const csrName = `garbage-${n++}`;
          const body = {
            apiVersion: 'certificates.k8s.io/v1',
            kind: 'CertificateSigningRequest',
            metadata: { name: csrName },
            spec: { request, signerName: 'kubernetes.io/kube-apiserver-client', usages: ['client auth'] },
          };
          const created = await api.send(
            'POST',
            '/apis/certificates.k8s.io/v1/certificatesigningrequests',
            JSON.stringify(body),
          );
          if (created.status !== 201) return created.status >= 400 && created.status < 500;
          const approved = {
            ...created.json(),
            status: { conditions: [{ type: 'Approved', status: 'True', reason: 'Test', message: 'fuzz' }] },
          };
          await api.send(
            'PUT',
            `/apis/certificates.k8s.io/v1/certificatesigningrequests/${csrName}/approval`,
            JSON.stringify(approved),
          );
          const status = await waitFor('a verdict', async () => {
            const csr = (
              await api.send('GET', `/apis/certificates.k8s.io/v1/certificatesigningrequests/${csrName}`)
            ).json();
            return csr.status?.certificate ||
              (csr.status?.conditions ?? []).some((c: { type: string }) => c.type === 'Failed')
              ? csr.status
              : undefined;
          });
          return !status.certificate;
        },
      ),
      { numRuns: 20 },
    );
    expect((await api.send('GET', '/healthz')).status).toBe(200);
  });
});
