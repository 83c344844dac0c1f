// The kubelet's serving certificate: self-signed for 127.0.0.1/localhost/the node name, made once with openssl and
// kept in the data dir. Not signed by the cluster CA (the kubelet-serving CSR flow is not used yet).
import { execFile } from 'node:child_process';
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';

export interface ServingCert {
  certPem: string;
  keyPem: string;
}

export async function selfSignedCert(dir: string, nodeName: string): Promise<ServingCert> {
  const certPath = join(dir, 'kubelet.crt');
  const keyPath = join(dir, 'kubelet.key');
  try {
    return { certPem: await readFile(certPath, 'utf8'), keyPem: await readFile(keyPath, 'utf8') };
  } catch {
    // not made yet
  }
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const san = [`IP:127.0.0.1`, `DNS:localhost`, /^[a-z0-9.-]+$/i.test(nodeName) ? `DNS:${nodeName}` : undefined].filter(Boolean).join(',');
  await promisify(execFile)('openssl', [
    'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '365',
    '-subj', `/CN=${nodeName}@local-kubelet`, '-addext', `subjectAltName=${san}`, '-keyout', keyPath, '-out', certPath,
  ]);
  return { certPem: await readFile(certPath, 'utf8'), keyPem: await readFile(keyPath, 'utf8') };
}
