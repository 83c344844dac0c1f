// One certificate from the cluster, as kube's kubelet gets its certificates (client-go's certificate/csr helpers):
// create a CertificateSigningRequest for a signer, then read it until it carries the issued certificate, or fail when
// it is denied or failed. Used for the serving certificate (serverTLSBootstrap) and the client certificate (TLS
// bootstrap with --bootstrap-kubeconfig).
import { setTimeout as sleep } from 'node:timers/promises';
import type * as k8s from '@kubernetes/client-node';
import { pollDelays } from '@gardener-ts/controller-runtime';
import type { Logger } from '@gardener-ts/logging';

/** What to ask for and how to wait. */
export interface CertificateRequest {
  /** The PEM CERTIFICATE REQUEST. */
  requestPem: string;
  signerName: string;
  usages: string[];
  /** The CSR's name prefix (`csr-` for serving, `node-csr-` for the client certificate, as kube names them). */
  generateName: string;
  /** How often the CSR is read at most while waiting (from 100 ms, doubling); default 1 s. */
  pollMs?: number;
  /** Aborts the wait (the request then rejects). */
  signal?: AbortSignal;
  log: Logger;
  /** A description for the log, e.g. "kubelet serving certificate". */
  what: string;
}

/** Creates the CSR and resolves to the issued certificate (PEM) once it is approved and signed. */
export async function requestCertificate(
  api: k8s.CertificatesV1Api,
  request: CertificateRequest,
): Promise<{ name: string; certPem: string }> {
  const csr = await api.createCertificateSigningRequest({
    body: {
      apiVersion: 'certificates.k8s.io/v1',
      kind: 'CertificateSigningRequest',
      metadata: { generateName: request.generateName },
      spec: {
        request: Buffer.from(request.requestPem).toString('base64'),
        signerName: request.signerName,
        usages: request.usages,
      },
    },
  });
  const name = csr.metadata!.name!;
  request.log.info({ csr: name }, `Requested a ${request.what}; waiting for approval`);
  // Read soon after the request (an approver and the signer answer within a fraction of a second), then at most
  // every `pollMs`.
  const delays = pollDelays(request.pollMs ?? 1_000);
  for (;;) {
    if (request.signal?.aborted) throw new Error('stopped');
    const current = await api.readCertificateSigningRequest({ name });
    if (current.status?.certificate)
      return { name, certPem: Buffer.from(current.status.certificate, 'base64').toString('utf8') };
    const final = (current.status?.conditions ?? []).find(
      (c) => (c.type === 'Denied' || c.type === 'Failed') && c.status !== 'False',
    );
    if (final)
      throw new Error(
        `certificate signing request ${name} is ${final.type.toLowerCase()}: ${final.reason ?? ''} ${final.message ?? ''}`.trim(),
      );
    await sleep(delays.next().value, undefined, request.signal ? { signal: request.signal } : {}).catch(
      () => undefined,
    );
  }
}
