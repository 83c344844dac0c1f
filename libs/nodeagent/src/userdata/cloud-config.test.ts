// A machine executing the user data provider-local renders (the same cloud-config shape): files land below the root,
// units start through the local unit runner; unsupported commands are refused by name.
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LocalUnitRunner } from '../units/runner.js';
import { applyCloudConfig, parseCloudConfig } from './cloud-config.js';

const b64 = (s: string) => Buffer.from(s).toString('base64');
const userData = `#cloud-config
write_files:
  - path: /var/lib/gardener-node-agent/credentials/bootstrap-token
    permissions: "0640"
    content: 07401b.f395accd246ae52d
  - path: /etc/systemd/system/gardener-node-init.service
    permissions: "0644"
    encoding: b64
    content: ${b64('[Service]\nExecStart=/opt/bin/gardener-node-agent bootstrap\n')}
runcmd:
  - systemctl daemon-reload
  - systemctl enable 'gardener-node-init.service'
  - systemctl start 'gardener-node-init.service'
`;

let root: string;
let units: LocalUnitRunner;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'userdata-'));
  units = new LocalUnitRunner({
    rootDir: root,
    programs: {
      '/opt/bin/gardener-node-agent': () => ({
        command: process.execPath,
        args: ['-e', 'setInterval(() => {}, 1000)'],
      }),
    },
    stopTimeoutMs: 2000,
  });
});
afterEach(async () => {
  await units.stopAll();
  await rm(root, { recursive: true, force: true });
});

describe('cloud-config on a local machine', () => {
  it('writes the files and starts the units', async () => {
    await applyCloudConfig(parseCloudConfig(userData), { rootDir: root, units });
    const token = join(root, 'var/lib/gardener-node-agent/credentials/bootstrap-token');
    expect(await readFile(token, 'utf8')).toBe('07401b.f395accd246ae52d');
    expect((await stat(token)).mode & 0o777).toBe(0o640);
    expect(units.status('gardener-node-init.service')).toMatchObject({ activeState: 'active', enabled: true });
    expect(units.daemonReloads).toBe(1);
  });

  it('runs every command even when one fails, and reports the failures', async () => {
    const config = parseCloudConfig(
      "#cloud-config\nruncmd:\n  - systemctl start 'missing.service'\n  - systemctl enable 'other.service'\n",
    );
    await expect(applyCloudConfig(config, { rootDir: root, units })).rejects.toThrow(
      'user data: systemctl start missing.service: Job for missing.service failed: Unit missing.service not found.',
    );
    expect(units.status('other.service').enabled).toBe(true);
  });

  it('refuses what a local machine cannot run', () => {
    expect(() => parseCloudConfig('#!/bin/bash\necho hi\n')).toThrow('user data is not a #cloud-config');
    expect(() => parseCloudConfig('#cloud-config\nruncmd:\n  - curl https://example.com | sh\n')).toThrow(
      'runcmd[0] "curl https://example.com | sh" is not supported on local machines',
    );
  });
});
