import { X509Certificate } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createCA, issueCertificate } from '@gardener-ts/local-apiserver';
import { waitFor } from '@gardener-ts/testing';
import { CertWatcher } from './cert-watcher.js';

const cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0)) await fn();
});

async function setup() {
  const dir = await mkdtemp(join(tmpdir(), 'cert-watcher-'));
  cleanup.push(() => rm(dir, { recursive: true, force: true }));
  const ca = await createCA('ca');
  const issue = () => issueCertificate(ca, { commonName: 'server', usage: 'server' });
  const files = { certFile: join(dir, 'tls.crt'), keyFile: join(dir, 'tls.key') };
  return { dir, issue, files };
}

const fingerprint = (pem: Buffer) => new X509Certificate(pem).fingerprint256;

describe('CertWatcher', () => {
  it('fails to start with a message naming the files when they are missing or do not match', async () => {
    const { issue, files } = await setup();
    await expect(CertWatcher.start(files)).rejects.toThrow(/cannot read the serving certificate .*tls\.crt/);
    const [a, b] = [await issue(), await issue()];
    await writeFile(files.certFile, a.certPem);
    await writeFile(files.keyFile, b.keyPem);
    await expect(CertWatcher.start(files)).rejects.toThrow(
      /tls\.crt and .*tls\.key are not a usable certificate and key/,
    );
  });

  it('keeps the current pair while a rotation is half written, then switches to the complete new pair', async () => {
    const { issue, files } = await setup();
    const first = await issue();
    await writeFile(files.certFile, first.certPem);
    await writeFile(files.keyFile, first.keyPem);
    const watcher = await CertWatcher.start({ ...files, pollIntervalMs: 200 });
    cleanup.push(() => watcher.stop());
    const seen: string[] = [];
    watcher.onChange((pair) => seen.push(fingerprint(pair.cert)));

    const second = await issue();
    await writeFile(files.certFile, second.certPem); // the key still belongs to the first certificate
    await watcher.reload();
    expect(fingerprint(watcher.current.cert)).toBe(fingerprint(Buffer.from(first.certPem)));

    await writeFile(files.keyFile, second.keyPem);
    await waitFor(
      'the watcher to pick up the new pair',
      () => fingerprint(watcher.current.cert) === fingerprint(Buffer.from(second.certPem)),
    );
    expect(seen).toEqual([fingerprint(Buffer.from(second.certPem))]);
  });
});
