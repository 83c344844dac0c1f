// Test helpers (not exported): PKCS#10 certificate requests as a gardenlet (or anyone else) makes them, and a ReconcileContext.
import { webcrypto } from 'node:crypto';
import 'reflect-metadata';
import * as x509 from '@peculiar/x509';
import type { ReconcileContext } from '@gardener-ts/controller-runtime';
import { createLogger } from '@gardener-ts/logging';

const ALG = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;

/** A PEM certificate request for `subject` (e.g. `CN=gardener.cloud:system:seed:local, O=gardener.cloud:system:seeds`). */
export async function certificateRequestPem(
  subject: string,
  sans: { dns?: string[]; email?: string[]; ip?: string[] } = {},
): Promise<string> {
  const keys = (await webcrypto.subtle.generateKey(ALG, true, ['sign', 'verify'])) as webcrypto.CryptoKeyPair;
  const names = [
    ...(sans.dns ?? []).map((value) => ({ type: 'dns' as const, value })),
    ...(sans.email ?? []).map((value) => ({ type: 'email' as const, value })),
    ...(sans.ip ?? []).map((value) => ({ type: 'ip' as const, value })),
  ];
  const csr = await x509.Pkcs10CertificateRequestGenerator.create({
    name: subject,
    keys: keys as unknown as Parameters<typeof x509.Pkcs10CertificateRequestGenerator.create>[0]['keys'],
    signingAlgorithm: ALG,
    extensions: names.length > 0 ? [new x509.SubjectAlternativeNameExtension(names)] : [],
  });
  return csr.toString('pem');
}

/** A ReconcileContext with a silent logger. */
export function silentContext(controller = 'test'): ReconcileContext {
  return { log: createLogger({ name: controller, level: 'silent' }), signal: new AbortController().signal, controller };
}
