import { X509Certificate } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FakeSecretsClient } from '@gardener-ts/secrets-manager/testing';
import {
  WebhookCAName,
  WebhookServerCertificateName,
  ensureWebhookCertificates,
  webhookCAConfig,
  webhookServerCertificateConfig,
} from './certificates.js';

const namespace = 'extension-provider-local-x1y2z';
const DAY_MS = 24 * 3600_000;
const dirs: string[] = [];
const certDir = async () => {
  const dir = await mkdtemp(join(tmpdir(), 'provider-local-certs-test-'));
  dirs.push(dir);
  return dir;
};

afterEach(async () => {
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

describe('webhook certificate configs', () => {
  it("are Gardener's: a 30-day CA and a server certificate for the Service without the CA in its secret", () => {
    expect(webhookCAConfig()).toMatchObject({
      name: 'ca-provider-local-webhook',
      certType: 'ca',
      validity: 30 * DAY_MS,
    });
    expect(webhookServerCertificateConfig(namespace)).toMatchObject({
      name: 'provider-local-webhook-server',
      certType: 'server',
      skipPublishingCACertificate: true,
      dnsNames: [
        'gardener-extension-provider-local',
        `gardener-extension-provider-local.${namespace}`,
        `gardener-extension-provider-local.${namespace}.svc`,
      ],
      ipAddresses: [],
    });
  });
});

describe('ensureWebhookCertificates', () => {
  it('writes a serving key pair signed by the returned CA bundle and reuses both on the next start', async () => {
    const client = new FakeSecretsClient();
    const dir = await certDir();
    const bundle = await ensureWebhookCertificates(client, { namespace, certDir: dir, extraNames: ['127.0.0.1'] });
    const cert = new X509Certificate(await readFile(join(dir, 'tls.crt')));
    const ca = new X509Certificate(bundle);
    expect(cert.verify(ca.publicKey)).toBe(true);
    expect(cert.checkHost(`gardener-extension-provider-local.${namespace}.svc`)).toBeDefined();
    expect(cert.checkIP('127.0.0.1')).toBe('127.0.0.1');
    expect(cert.checkHost('example.com')).toBeUndefined();
    expect(await readFile(join(dir, 'tls.key'), 'utf8')).toMatch(/PRIVATE KEY/);

    const names = [...client.secrets.values()].map((s) => s.metadata!.labels!.name);
    expect(names).toEqual(expect.arrayContaining([WebhookCAName, WebhookServerCertificateName]));

    const again = await certDir();
    expect(await ensureWebhookCertificates(client, { namespace, certDir: again, extraNames: ['127.0.0.1'] })).toBe(
      bundle,
    );
    expect(await readFile(join(again, 'tls.crt'), 'utf8')).toBe(await readFile(join(dir, 'tls.crt'), 'utf8'));
  });

  it('renews the CA when it nears its end and trusts the old one beside it for a day', async () => {
    const client = new FakeSecretsClient();
    let now = new Date('2026-01-01T00:00:00Z');
    client.now = () => now;
    const first = await ensureWebhookCertificates(client, { namespace, certDir: await certDir(), now: () => now });
    now = new Date(now.getTime() + 29 * DAY_MS);
    client.now = () => now;
    const renewed = await ensureWebhookCertificates(client, { namespace, certDir: await certDir(), now: () => now });
    expect(renewed).not.toBe(first);
    expect(renewed).toContain(first.trim());
  });
});
