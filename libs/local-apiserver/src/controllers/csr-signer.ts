// The CSR signer of the local cluster (kube-controller-manager's csrsigning in a kind cluster): an approved
// CertificateSigningRequest for one of kube's client or kubelet signers gets a certificate from the cluster CA,
// valid for expirationSeconds (at most a year), with the subject of the request. The issued client certificate
// authenticates (CN = user, O = groups).
import * as x509 from '@peculiar/x509';
import type { Logger } from '@gardener-ts/logging';
import type { Registry } from '../registry/registry.js';
import type { KubeObject, Storage, StorageEvent, Watch } from '../storage/types.js';
import { issueCertificate, type CertificateAuthority } from '../pki/certs.js';
import { internalContext } from '../server/context.js';
import type { ObjectService } from '../server/objects.js';
import { KeyedQueue } from './queue.js';
import { watchPrefix } from './watch-prefix.js';

const ctx = internalContext('certificatesigningrequest-signing-controller');
const PREFIX = '/registry/certificates.k8s.io/certificatesigningrequests/';
const MAX_SECONDS = 365 * 24 * 3600;

const SIGNERS: Record<string, 'client' | 'server'> = {
  'kubernetes.io/kube-apiserver-client': 'client',
  'kubernetes.io/kube-apiserver-client-kubelet': 'client',
  'kubernetes.io/kubelet-serving': 'server',
};

const hasCondition = (csr: KubeObject, type: string) =>
  (csr.status?.conditions ?? []).some((c: KubeObject) => c.type === type && c.status !== 'False');

export class CSRSigner {
  private watch?: Watch;
  private readonly queue: KeyedQueue;

  constructor(
    private readonly storage: Storage,
    private readonly registry: Registry,
    private readonly objects: ObjectService,
    private readonly ca: CertificateAuthority,
    private readonly log: Logger,
  ) {
    this.queue = new KeyedQueue(
      (name) => this.reconcile(name),
      (name, err) => this.log.info({ err, csr: name }, 'CSR signing failed'),
    );
  }

  async start(): Promise<void> {
    this.watch = await watchPrefix(this.storage, PREFIX, (e) => this.observe(e), this.log);
  }

  stop(): void {
    this.watch?.stop();
    this.queue.stop();
  }

  private observe(event: StorageEvent): void {
    const csr = event.object;
    if (event.type === 'DELETED' || csr.status?.certificate || !SIGNERS[csr.spec?.signerName]) return;
    if (hasCondition(csr, 'Approved') && !hasCondition(csr, 'Denied') && !hasCondition(csr, 'Failed'))
      this.queue.add(csr.metadata.name);
  }

  private async reconcile(name: string): Promise<void> {
    const def = this.registry.get('certificates.k8s.io', 'v1', 'certificatesigningrequests')!;
    const csr = await this.objects.get(def, '', name).catch(() => undefined);
    if (!csr || csr.status?.certificate || !hasCondition(csr, 'Approved') || hasCondition(csr, 'Denied')) return;
    let certificate: string;
    try {
      certificate = await this.sign(csr);
    } catch (err) {
      const now = new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
      const failed = {
        type: 'Failed',
        status: 'True',
        reason: 'SigningError',
        message: (err as Error).message,
        lastUpdateTime: now,
        lastTransitionTime: now,
      };
      await this.objects.update(
        def,
        '',
        name,
        { ...csr, status: { ...csr.status, conditions: [...(csr.status?.conditions ?? []), failed] } },
        ctx,
        'status',
      );
      return;
    }
    await this.objects.update(
      def,
      '',
      name,
      { ...csr, status: { ...csr.status, certificate: Buffer.from(certificate).toString('base64') } },
      ctx,
      'status',
    );
  }

  private async sign(csr: KubeObject): Promise<string> {
    const request = new x509.Pkcs10CertificateRequest(Buffer.from(csr.spec.request, 'base64').toString('utf8'));
    if (!(await request.verify())) throw new Error('the request is not signed by its own key');
    const subject = new x509.Name(request.subject).toJSON();
    const values = (type: string) => subject.flatMap((rdn) => rdn[type] ?? []);
    const commonName = values('CN')[0];
    if (!commonName) throw new Error('the request has no common name');
    const seconds = Math.min(Number(csr.spec.expirationSeconds ?? MAX_SECONDS), MAX_SECONDS);
    const san = request.extensions.find(
      (e): e is x509.SubjectAlternativeNameExtension => e instanceof x509.SubjectAlternativeNameExtension,
    );
    const names: x509.JsonGeneralName[] = san?.names.toJSON() ?? [];
    const issued = await issueCertificate(this.ca, {
      commonName,
      organizations: values('O'),
      dnsNames: names.filter((n) => n.type === 'dns').map((n) => n.value),
      ipAddresses: names.filter((n) => n.type === 'ip').map((n) => n.value),
      usage: SIGNERS[csr.spec.signerName],
      // The key as WebCrypto sees it (x509's crypto provider is node's webcrypto, set in pki/certs.ts).
      publicKey: (await request.publicKey.export()) as unknown as Parameters<typeof issueCertificate>[1]['publicKey'],
      notAfter: new Date(Date.now() + seconds * 1000),
    });
    return issued.certPem;
  }
}
