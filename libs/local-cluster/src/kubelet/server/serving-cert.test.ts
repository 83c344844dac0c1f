import 'reflect-metadata';
import { createPrivateKey, X509Certificate } from 'node:crypto';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Pkcs10CertificateRequest } from '@peculiar/x509';
import { afterAll, describe, expect, it } from 'vitest';
import { parseCertificateRequest } from '../../controllers/csrapproving-kubelet-serving/certificate-request.js';
import { kubeletServingRequest, newKeyPair, selfSignedCert } from './serving-cert.js';

const dirs: string[] = [];
afterAll(() => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

describe('kubeletServingRequest', () => {
  it('asks for the node identity and its addresses, signed by the key', async () => {
    const { keys, keyPem } = await newKeyPair();
    const addresses = [
      { type: 'InternalIP', address: '127.0.0.1' },
      { type: 'InternalIP', address: '::1' },
      { type: 'Hostname', address: 'worker-1' },
      { type: 'Hostname', address: 'not a host name' },
    ];
    const pem = await kubeletServingRequest(keys, 'worker-1', addresses);
    expect(pem).toMatch(/^-----BEGIN CERTIFICATE REQUEST-----/);
    expect(parseCertificateRequest(pem)).toEqual({
      commonName: 'system:node:worker-1',
      organizations: ['system:nodes'],
      dnsNames: ['worker-1'],
      ipAddresses: ['127.0.0.1', '::1'],
      otherNames: 0,
    });
    expect(await new Pkcs10CertificateRequest(pem).verify()).toBe(true);
    expect(createPrivateKey(keyPem).asymmetricKeyType).toBe('ec');
  });
});

describe('selfSignedCert', () => {
  it('makes a certificate for localhost and the node once, private to the owner, and keeps it', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'kubelet-pki-'));
    dirs.push(dir);
    const first = await selfSignedCert(join(dir, 'pki'), 'node-a');
    const cert = new X509Certificate(first.certPem);
    expect(cert.checkPrivateKey(createPrivateKey(first.keyPem))).toBe(true);
    expect(cert.checkHost('localhost')).toBe('localhost');
    expect(cert.checkHost('node-a')).toBe('node-a');
    expect(cert.checkIP('127.0.0.1')).toBe('127.0.0.1');
    expect(Date.parse(cert.validTo) - Date.now()).toBeGreaterThan(300 * 24 * 3600_000);
    expect((await stat(join(dir, 'pki', 'kubelet.key'))).mode & 0o777).toBe(0o600);
    expect(await selfSignedCert(join(dir, 'pki'), 'node-a')).toEqual(first);
    expect(await readFile(join(dir, 'pki', 'kubelet.crt'), 'utf8')).toBe(first.certPem);
  });
});
