// serverTLSBootstrap: the kubelet's serving certificate from the cluster, as kube's kubelet certificate manager gets
// it. The kubelet makes a key, asks for a certificate with a CertificateSigningRequest for kubernetes.io/kubelet-serving
// (subject O=system:nodes, CN=system:node:<node>; SANs the Node's addresses; usages digital signature and server auth)
// under its own identity, and waits until someone approved it and the signer issued it. The certificate and its key
// are kept together in `<dataDir>/pki/kubelet-server-current.pem` (0600), reused after a restart while valid, and
// replaced once 70–90 % (jittered) of the lifetime has passed. Until the first certificate is issued the kubelet has
// no serving certificate at all (kube's "no serving certificate available for the kubelet"): TLS handshakes fail.
import { createPrivateKey, X509Certificate } from 'node:crypto';
import { mkdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import * as k8s from '@kubernetes/client-node';
import type { Logger } from '@gardener-ts/logging';
import { requestCertificate } from '../certificates/request-certificate.js';
import { kubeletServingRequest, newKeyPair, writeSecret, type ServingCert } from './serving-cert.js';

export const KUBELET_SERVING_SIGNER = 'kubernetes.io/kubelet-serving';
export const CURRENT_FILE = 'kubelet-server-current.pem';
const PENDING_KEY_FILE = 'kubelet-server.key.pending';
/** The longest a timer waits at once (setTimeout's limit is about 24.8 days); longer waits are re-checked. */
const MAX_TIMER_MS = 2 ** 31 - 1;

export interface ServingCertManagerOptions {
  /** `<dataDir>/pki`. */
  dir: string;
  nodeName: string;
  /** The Node's status.addresses: Hostname/…DNS become DNS names, …IP become IP addresses of the certificate. */
  addresses: { type: string; address: string }[];
  /** How often the CSR is read while waiting for approval and issuance; default 1 s. */
  pollMs?: number;
  /** The first wait after a failed attempt (denied, failed, API error), doubling up to 5 min; default 2 s. */
  retryMs?: number;
  /** The certificate to serve with from now on (first one, and every rotation). */
  use(cert: ServingCert): void;
  log: Logger;
}

export interface Issued extends ServingCert {
  notBefore: number;
  notAfter: number;
}

export class ServingCertManager {
  private readonly api: k8s.CertificatesV1Api;
  private readonly abort = new AbortController();
  private current?: Issued;
  private running?: Promise<void>;

  constructor(
    config: k8s.KubeConfig,
    private readonly options: ServingCertManagerOptions,
  ) {
    this.api = config.makeApiClient(k8s.CertificatesV1Api);
  }

  /** The certificate kept from an earlier run, if it is still valid for this node (it is served right away). */
  async loadCurrent(): Promise<ServingCert | undefined> {
    let pem: string;
    try {
      pem = await readFile(join(this.options.dir, CURRENT_FILE), 'utf8');
    } catch {
      return undefined;
    }
    try {
      const issued = parseIssued(pem, this.options.nodeName);
      if (issued.notAfter <= Date.now()) throw new Error('it has expired');
      this.current = issued;
      this.options.use(issued);
      this.options.log.info(
        { notAfter: new Date(issued.notAfter).toISOString() },
        'Serving with the kubelet serving certificate issued earlier',
      );
      return issued;
    } catch (err) {
      this.options.log.info(
        { err: (err as Error).message },
        'The kept kubelet serving certificate is not usable; requesting a new one',
      );
      return undefined;
    }
  }

  /** Requests a certificate now (none yet) or at the rotation deadline, then again before each one expires. */
  start(): void {
    if (!this.current) {
      this.options.log.info(
        'No serving certificate yet (serverTLSBootstrap): TLS handshakes fail until the kubelet-serving CSR is approved and issued',
      );
    }
    this.running = this.loop().catch((err) => {
      if (!this.abort.signal.aborted) this.options.log.error({ err }, 'Kubelet serving certificate manager stopped');
    });
  }

  async stop(): Promise<void> {
    this.abort.abort();
    await this.running;
  }

  private async loop(): Promise<void> {
    const retryMs = this.options.retryMs ?? 2_000;
    let failures = 0;
    while (!this.abort.signal.aborted) {
      const waitMs = this.current ? rotationDeadline(this.current) - Date.now() : 0;
      if (waitMs > 0) {
        await this.wait(Math.min(waitMs, MAX_TIMER_MS));
        continue;
      }
      try {
        const issued = await this.request();
        this.current = issued;
        this.options.use(issued);
        failures = 0;
        this.options.log.info(
          { notAfter: new Date(issued.notAfter).toISOString() },
          'Serving with a newly issued kubelet serving certificate',
        );
      } catch (err) {
        if (this.abort.signal.aborted) return;
        const backoff = Math.min(retryMs * 2 ** failures++, 300_000);
        this.options.log.error(
          { err: (err as Error).message, retryInMs: backoff },
          'Kubelet serving certificate request failed',
        );
        await this.wait(backoff);
      }
    }
  }

  private async wait(ms: number): Promise<void> {
    await sleep(ms, undefined, { signal: this.abort.signal }).catch(() => undefined);
  }

  private async request(): Promise<Issued> {
    const { dir, nodeName } = this.options;
    await mkdir(dir, { recursive: true, mode: 0o700 });
    const keyPath = join(dir, PENDING_KEY_FILE);
    const { keys, keyPem } = await newKeyPair();
    await writeSecret(keyPath, keyPem);
    const requestPem = await kubeletServingRequest(keys, nodeName, this.options.addresses);
    // An ECDSA key: no key encipherment (kube's kubelet asks for it only for RSA keys).
    const { certPem } = await requestCertificate(this.api, {
      requestPem,
      signerName: KUBELET_SERVING_SIGNER,
      usages: ['digital signature', 'server auth'],
      generateName: 'csr-',
      pollMs: this.options.pollMs,
      signal: this.abort.signal,
      log: this.options.log,
      what: 'kubelet serving certificate',
    });
    const issued = parseIssued(`${certPem.trimEnd()}\n${keyPem}`, nodeName);
    // Written before it is used: a restart serves the same certificate.
    await writeSecret(join(dir, CURRENT_FILE), `${issued.certPem.trimEnd()}\n${keyPem}`);
    await rm(keyPath, { force: true });
    return issued;
  }
}

/** Cert and key from one PEM file; throws unless the key belongs to the certificate and the certificate to the node. */
export function parseIssued(pem: string, nodeName: string): Issued {
  const certPem = /-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----\n?/.exec(pem)?.[0];
  const keyPem = /-----BEGIN (?:EC )?PRIVATE KEY-----[\s\S]*?-----END (?:EC )?PRIVATE KEY-----\n?/.exec(pem)?.[0];
  if (!certPem || !keyPem) throw new Error('it does not hold a certificate and a key');
  const cert = new X509Certificate(certPem);
  if (!cert.checkPrivateKey(createPrivateKey(keyPem))) throw new Error('the key does not belong to the certificate');
  if (!cert.subject.split('\n').includes(`CN=system:node:${nodeName}`))
    throw new Error(`it is not a certificate of node ${nodeName}`);
  return { certPem, keyPem, notBefore: Date.parse(cert.validFrom), notAfter: Date.parse(cert.validTo) };
}

/** kube's certificate manager: a random instant between 70 % and 90 % of the certificate's lifetime. */
export function rotationDeadline(cert: { notBefore: number; notAfter: number }, random = Math.random()): number {
  const lifetime = cert.notAfter - cert.notBefore;
  return cert.notBefore + lifetime * (0.7 + 0.2 * random);
}
