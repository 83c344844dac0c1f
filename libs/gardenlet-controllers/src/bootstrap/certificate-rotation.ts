// Rotation of the gardenlet's garden client certificate (Gardener's certificate manager): a leader-only runnable that
// renews the certificate at its rotation deadline (70–90 % of its validity by default) or as soon as the kubeconfig
// Secret is annotated `gardener.cloud/operation=renew`, stores the new kubeconfig in the Secret and then asks the
// process to restart, so every client uses the new certificate (Gardener's gardenlet restarts after a rotation, too).
import type { Client, Runnable } from '@gardener-ts/controller-runtime';
import type { Logger } from '@gardener-ts/logging';
import {
  sleep,
  kubeconfigCertificate,
  readKubeconfigSecret,
  renewKubeconfig,
  requestClientCertificate,
  writeKubeconfigSecret,
} from './bootstrap.js';
import { renewalRequested, rotationDeadline } from './rotation.js';

export interface CertificateRotationOptions {
  seedName: string;
  /** Live client of the seed cluster, where the kubeconfig Secret is. */
  seed: Pick<Client, 'get' | 'create' | 'update'>;
  secretRef: { name: string; namespace: string };
  jitter: { min: number; max: number };
  validitySeconds?: number;
  /** How often the Secret is checked for a renewal request (default 30 s). */
  checkIntervalMs?: number;
  /** Called once the new kubeconfig is stored. */
  onRotated: () => void;
  log: Logger;
  random?: () => number;
  now?: () => number;
  requestCertificate?: typeof requestClientCertificate;
}

/** The rotation loop; starts when this gardenlet leads. */
export class CertificateRotation implements Runnable {
  readonly needLeaderElection = true;
  private readonly abort = new AbortController();
  private loop?: Promise<void>;

  constructor(private readonly options: CertificateRotationOptions) {}

  start(): void {
    this.loop = this.run().catch((err: unknown) => {
      if (!this.abort.signal.aborted) this.options.log.error({ err }, 'Certificate rotation stopped');
    });
  }

  async stop(): Promise<void> {
    this.abort.abort();
    await this.loop;
  }

  private async run(): Promise<void> {
    const o = this.options;
    const now = o.now ?? Date.now;
    const signal = this.abort.signal;
    let deadline: number | undefined;
    while (!signal.aborted) {
      try {
        const stored = await readKubeconfigSecret(o.seed, o.secretRef);
        if (stored) {
          const cert = kubeconfigCertificate(stored.kubeconfig);
          if (cert && deadline === undefined) {
            deadline = rotationDeadline(cert.notBefore, cert.notAfter, o.jitter, (o.random ?? Math.random)()).getTime();
            o.log.info(
              { rotationDeadline: new Date(deadline).toISOString(), notAfter: cert.notAfter.toISOString() },
              'Scheduled rotation of the garden client certificate',
            );
          }
          const requested = renewalRequested(stored.annotations);
          if (cert && (requested || now() >= (deadline ?? Infinity))) {
            o.log.info({ requested }, 'Rotating the garden client certificate');
            const renewed = await renewKubeconfig(
              stored.kubeconfig,
              { seedName: o.seedName, validitySeconds: o.validitySeconds, signal, log: o.log },
              o.requestCertificate,
            );
            await writeKubeconfigSecret(o.seed, o.secretRef, renewed);
            o.log.info('Stored the rotated garden kubeconfig; restarting to use it');
            o.onRotated();
            return;
          }
        }
      } catch (err) {
        if (signal.aborted) return;
        o.log.error({ err }, 'Garden client certificate rotation failed, retrying');
      }
      await sleep(o.checkIntervalMs ?? 30_000, signal).catch(() => undefined);
    }
  }
}
