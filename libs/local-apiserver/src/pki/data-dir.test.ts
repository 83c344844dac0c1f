import { chmod, mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadOrCreateCredentials } from './data-dir.js';

let dir: string | undefined;
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

const mode = async (path: string) => (await stat(path)).mode & 0o777;

/** The mode of every file of `pki`, by name. */
async function modes(pki: string): Promise<Record<string, number>> {
  const names = (await readdir(pki)).sort();
  return Object.fromEntries(await Promise.all(names.map(async (n) => [n, await mode(join(pki, n))] as const)));
}

const expected = {
  'admin.crt': 0o644,
  'admin.key': 0o600,
  'apiserver.crt': 0o644,
  'apiserver.key': 0o600,
  'ca.crt': 0o644,
  'ca.key': 0o600,
  'sa.key': 0o600,
};

describe('loadOrCreateCredentials', () => {
  it('writes the pki directory 0700 and every private key 0600', async () => {
    dir = await mkdtemp(join(tmpdir(), 'pki-modes-'));
    await loadOrCreateCredentials(dir);
    expect(await mode(join(dir, 'pki'))).toBe(0o700);
    expect(await modes(join(dir, 'pki'))).toEqual(expected);
  });

  it('tightens the pki directory and the keys of an existing world-readable data dir on start', async () => {
    dir = await mkdtemp(join(tmpdir(), 'pki-modes-'));
    const first = await loadOrCreateCredentials(dir);
    const pki = join(dir, 'pki');
    await chmod(pki, 0o755);
    for (const name of await readdir(pki)) await chmod(join(pki, name), 0o644);

    const again = await loadOrCreateCredentials(dir);
    expect(again.ca.certPem).toBe(first.ca.certPem); // reused, not replaced
    expect(await mode(pki)).toBe(0o700);
    expect(await modes(pki)).toEqual(expected);
  });
});
