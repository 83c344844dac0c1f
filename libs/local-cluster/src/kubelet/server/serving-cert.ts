// The kubelet's own keys and certificates, made with @peculiar/x509 over Node's WebCrypto (ECDSA P-256): the
// self-signed serving certificate for 127.0.0.1/localhost/the node name kept in the data dir when no serverTLSBootstrap
// is used, and the key and PKCS#10 request of a kubelet-serving CertificateSigningRequest when it is.
import 'reflect-metadata';
import { webcrypto } from 'node:crypto';
import { chmod, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { isIP } from 'node:net';
import { join } from 'node:path';
import * as x509 from '@peculiar/x509';

type Crypto = webcrypto.Crypto;
type CryptoKeyPair = webcrypto.CryptoKeyPair;

const crypto = webcrypto as unknown as Crypto;
const KEY_ALGORITHM = { name: 'ECDSA', namedCurve: 'P-256' } as const;
const SIGNING_ALGORITHM = { name: 'ECDSA', hash: 'SHA-256' } as const;
const DAY_MS = 24 * 3600_000;

/** A certificate and its private key, both PEM. */
export interface ServingCert {
  certPem: string;
  keyPem: string;
}

/** A fresh ECDSA P-256 key pair and its private key as PKCS#8 PEM. */
export async function newKeyPair(): Promise<{ keys: CryptoKeyPair; keyPem: string }> {
  const keys = (await crypto.subtle.generateKey(KEY_ALGORITHM, true, ['sign', 'verify'])) as CryptoKeyPair;
  const pkcs8 = await crypto.subtle.exportKey('pkcs8', keys.privateKey);
  return { keys, keyPem: x509.PemConverter.encode(pkcs8, 'PRIVATE KEY') };
}

/**
 * The subjectAltName entries for a node's addresses: DNS names from Hostname/…DNS addresses, IPs from …IP addresses;
 * anything else (or a value that is not a host name or an IP) is left out.
 */
export function subjectAltNames(
  addresses: { type: string; address: string }[],
): { type: 'dns' | 'ip'; value: string }[] {
  const names = new Map<string, { type: 'dns' | 'ip'; value: string }>();
  for (const { type, address } of addresses) {
    if (/IP$/.test(type) && isIP(address)) names.set(`ip:${address}`, { type: 'ip', value: address });
    else if (/DNS$|^Hostname$/.test(type) && /^[a-z0-9.-]+$/i.test(address))
      names.set(`dns:${address}`, { type: 'dns', value: address });
  }
  return [...names.values()];
}

/** A PEM CERTIFICATE REQUEST for the node's serving certificate: O=system:nodes, CN=system:node:<node>, SANs its addresses. */
export function kubeletServingRequest(
  keys: CryptoKeyPair,
  nodeName: string,
  addresses: { type: string; address: string }[],
): Promise<string> {
  return nodeCertificateRequest(keys, nodeName, [new x509.SubjectAlternativeNameExtension(subjectAltNames(addresses))]);
}

/** A PEM CERTIFICATE REQUEST for the node's client certificate (TLS bootstrap): O=system:nodes, CN=system:node:<node>. */
export function kubeletClientRequest(keys: CryptoKeyPair, nodeName: string): Promise<string> {
  return nodeCertificateRequest(keys, nodeName, []);
}

async function nodeCertificateRequest(
  keys: CryptoKeyPair,
  nodeName: string,
  extensions: x509.Extension[],
): Promise<string> {
  const request = await x509.Pkcs10CertificateRequestGenerator.create(
    {
      name: [{ O: ['system:nodes'] }, { CN: [`system:node:${nodeName}`] }],
      keys,
      signingAlgorithm: SIGNING_ALGORITHM,
      extensions,
    },
    crypto,
  );
  return request.toString('pem');
}

/** The self-signed serving certificate in `dir` (kubelet.crt, kubelet.key), made on first use and kept afterwards. */
export async function selfSignedCert(dir: string, nodeName: string): Promise<ServingCert> {
  const certPath = join(dir, 'kubelet.crt');
  const keyPath = join(dir, 'kubelet.key');
  try {
    return { certPem: await readFile(certPath, 'utf8'), keyPem: await readFile(keyPath, 'utf8') };
  } catch {
    // not made yet
  }
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const { keys, keyPem } = await newKeyPair();
  const now = Date.now();
  const cert = await x509.X509CertificateGenerator.createSelfSigned(
    {
      serialNumber: Buffer.from(crypto.getRandomValues(new Uint8Array(16)))
        .toString('hex')
        .replace(/^[89a-f]/, '1'),
      name: [{ CN: [`${nodeName}@local-kubelet`] }],
      notBefore: new Date(now - 60_000),
      notAfter: new Date(now + 365 * DAY_MS),
      keys,
      signingAlgorithm: SIGNING_ALGORITHM,
      extensions: [
        new x509.BasicConstraintsExtension(false, undefined, true),
        new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
        new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]),
        new x509.SubjectAlternativeNameExtension([
          { type: 'ip', value: '127.0.0.1' },
          { type: 'dns', value: 'localhost' },
          ...(/^[a-z0-9.-]+$/i.test(nodeName) ? [{ type: 'dns' as const, value: nodeName }] : []),
        ]),
      ],
    },
    crypto,
  );
  const certPem = cert.toString('pem');
  // The key first: a certificate on disk always has its key next to it.
  await writeSecret(keyPath, keyPem);
  await writeSecret(certPath, certPem);
  return { certPem, keyPem };
}

/** Writes a file readable only by the owner, atomically (temporary file, rename). */
export async function writeSecret(path: string, content: string): Promise<void> {
  await writeFile(`${path}.tmp`, content, { mode: 0o600 });
  await chmod(`${path}.tmp`, 0o600);
  await rename(`${path}.tmp`, path);
}
