// kube-controller-manager's csrsigning controller: an approved CertificateSigningRequest of a signer we hold a CA for
// (--cluster-signing-* files, see signer.ts) gets its certificate written to status.certificate through the
// `status` subresource, or a `Failed` condition saying why not. Without signing CAs the controller does not run (a
// cluster whose API server signs itself, as the substrate's runtime cluster).
import { readFile } from 'node:fs/promises';
import {
  controllerFor,
  isConflict,
  isNotFound,
  type ReconcileContext,
  type ReconcileResult,
  type Request,
} from '@gardener-ts/controller-runtime';
import type { CachedClient } from '@gardener-ts/controller-runtime';
import { CSRKind } from '../csrapproving/controller.js';
import type { CertificateSigningRequest } from '../csrapproving/rules.js';
import type { ControllerContext } from '../shared/context.js';
import {
  DEFAULT_SIGNING_DURATION_SECONDS,
  loadSigningCAs,
  needsSigning,
  signRequest,
  type SignerName,
  type SigningCAs,
  type SigningFiles,
} from './signer.js';

export const CSR_SIGNING = 'csrsigning';

/** What the csrsigning controller signs with: kube's --cluster-signing-* flags. */
export interface CSRSigningOptions {
  /** The CA files per signer; signers without files are not signed for. */
  files: Partial<Record<SignerName, SigningFiles>>;
  /** The longest validity of an issued certificate (--cluster-signing-duration); default one year. */
  durationSeconds?: number;
}

/** Registers the signer when `options` name at least one CA (on by default, as in kube-controller-manager). */
export async function addCSRSigningController(ctx: ControllerContext, options?: CSRSigningOptions): Promise<void> {
  if (!options || Object.keys(options.files).length === 0) {
    ctx.log.info('No --cluster-signing-* files, not signing certificate signing requests');
    return;
  }
  const cas = await loadSigningCAs(options.files, (path) => readFile(path, 'utf8'));
  controllerFor(ctx.mgr, CSR_SIGNING)
    .for(CSRKind)
    .withOptions({ maxConcurrentReconciles: 2, needLeaderElection: false })
    .complete(
      new CSRSigningReconciler(ctx.client, cas, options.durationSeconds ?? DEFAULT_SIGNING_DURATION_SECONDS, ctx.now),
    );
}

/** Signs approved CSRs of the signers in `cas`; see the file header. */
export class CSRSigningReconciler {
  private readonly signers: SignerName[];

  constructor(
    private readonly client: CachedClient,
    private readonly cas: SigningCAs,
    private readonly maxSeconds: number,
    private readonly now: () => number = Date.now,
  ) {
    this.signers = Object.keys(cas) as SignerName[];
  }

  async reconcile(req: Request, { log }: ReconcileContext): Promise<ReconcileResult | void> {
    const csr = (await this.client.get(CSRKind, { name: req.name }).catch((err) => {
      if (isNotFound(err)) return undefined;
      throw err;
    })) as CertificateSigningRequest | undefined;
    if (!csr || !needsSigning(csr, this.signers)) return;
    const signer = csr.spec!.signerName as SignerName;
    const now = new Date(this.now());
    const result = await signRequest(csr, signer, this.cas[signer]!, { now, maxSeconds: this.maxSeconds });
    const status =
      'certificate' in result
        ? { ...csr.status, certificate: Buffer.from(result.certificate).toString('base64') }
        : {
            ...csr.status,
            conditions: [
              ...(csr.status?.conditions ?? []),
              {
                type: 'Failed',
                status: 'True',
                ...result.failed,
                lastUpdateTime: now.toISOString().replace(/\.\d{3}Z$/, 'Z'),
                lastTransitionTime: now.toISOString().replace(/\.\d{3}Z$/, 'Z'),
              },
            ],
          };
    try {
      await this.client.updateStatus({
        ...csr,
        apiVersion: 'certificates.k8s.io/v1',
        kind: 'CertificateSigningRequest',
        status,
      } as CertificateSigningRequest);
    } catch (err) {
      if (isNotFound(err)) return;
      if (isConflict(err)) return { requeue: true };
      throw err;
    }
    if ('certificate' in result) log.info({ csr: req.name, signer }, 'Signed certificate signing request');
    else log.info({ csr: req.name, signer, ...result.failed }, 'Certificate signing request failed');
  }
}
