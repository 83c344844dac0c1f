// The API server's credentials in its data directory: created once, reused on restart. The directory is 0700 and every
// private key 0600, also in a data dir written before with wider modes (tightened at start, as the store is).
import { generateKeyPairSync } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createCA, issueCertificate, loadCA, type CertificateAuthority, type KeyPair } from './certs.js';

export interface ClusterCredentials {
  ca: CertificateAuthority;
  serving: KeyPair;
  admin: KeyPair;
  /** The key that signs ServiceAccount tokens (PKCS#8 PEM, ECDSA P-256). */
  serviceAccountKeyPem: string;
}

function serviceAccountKey(): string {
  return generateKeyPairSync('ec', { namedCurve: 'P-256' })
    .privateKey.export({ type: 'pkcs8', format: 'pem' })
    .toString();
}

const SERVING_NAMES = {
  dnsNames: [
    'localhost',
    'kubernetes',
    'kubernetes.default',
    'kubernetes.default.svc',
    'kubernetes.default.svc.cluster.local',
  ],
  ipAddresses: ['127.0.0.1', '::1'],
};

export async function writeSecret(path: string, content: string): Promise<void> {
  await writeFile(path, content, { mode: 0o600 });
  await chmod(path, 0o600);
}

/** Fresh credentials, nothing written (in-process test servers without a data dir). */
export async function generateCredentials(): Promise<ClusterCredentials> {
  const ca = await createCA('gardener-ts-local-ca');
  const [serving, admin] = await Promise.all([
    issueCertificate(ca, { commonName: 'kube-apiserver', usage: 'server', ...SERVING_NAMES }),
    issueCertificate(ca, { commonName: 'kubernetes-admin', organizations: ['system:masters'], usage: 'client' }),
  ]);
  return { ca, serving, admin, serviceAccountKeyPem: serviceAccountKey() };
}

/** Loads the credentials from `dir/pki`, creating what is missing. */
export async function loadOrCreateCredentials(dir: string): Promise<ClusterCredentials> {
  const pki = join(dir, 'pki');
  await mkdir(pki, { recursive: true, mode: 0o700 });
  await chmod(pki, 0o700); // mkdir leaves an existing directory's mode alone
  const paths = {
    caCert: join(pki, 'ca.crt'),
    caKey: join(pki, 'ca.key'),
    servingCert: join(pki, 'apiserver.crt'),
    servingKey: join(pki, 'apiserver.key'),
    adminCert: join(pki, 'admin.crt'),
    adminKey: join(pki, 'admin.key'),
  };
  const saKeyPath = join(pki, 'sa.key');
  if (Object.values(paths).every((p) => existsSync(p))) {
    const [caCert, caKey, servingCert, servingKey, adminCert, adminKey] = await Promise.all(
      Object.values(paths).map((p) => readFile(p, 'utf8')),
    );
    // Data dirs from before ServiceAccount tokens get their signing key now.
    if (!existsSync(saKeyPath)) await writeSecret(saKeyPath, serviceAccountKey());
    // Keys of a data dir written with wider modes are made private again.
    await Promise.all([paths.caKey, paths.servingKey, paths.adminKey, saKeyPath].map((p) => chmod(p, 0o600)));
    return {
      ca: await loadCA(caCert, caKey),
      serving: { certPem: servingCert, keyPem: servingKey },
      admin: { certPem: adminCert, keyPem: adminKey },
      serviceAccountKeyPem: await readFile(saKeyPath, 'utf8'),
    };
  }
  const creds = await generateCredentials();
  await writeFile(paths.caCert, creds.ca.certPem);
  await writeSecret(paths.caKey, creds.ca.keyPem);
  await writeFile(paths.servingCert, creds.serving.certPem);
  await writeSecret(paths.servingKey, creds.serving.keyPem);
  await writeFile(paths.adminCert, creds.admin.certPem);
  await writeSecret(paths.adminKey, creds.admin.keyPem);
  await writeSecret(saKeyPath, creds.serviceAccountKeyPem);
  return creds;
}
