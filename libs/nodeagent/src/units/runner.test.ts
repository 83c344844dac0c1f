// The local unit runner with real processes: units whose ExecStart names a program the machine knows run; unknown
// programs fail visibly; Environment/EnvironmentFile and drop-ins reach the process; Restart=always brings a killed
// process back; stop ends it; enabled units start on boot.
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { waitFor } from '@gardener-ts/test-support';
import { LocalUnitRunner, type ProgramLauncher } from './runner.js';

// A program of the machine: writes its arguments and environment to a file below the root, then runs until stopped.
const recorder: ProgramLauncher = (args, { rootDir }) => ({
  command: process.execPath,
  args: [
    '-e',
    `require('fs').writeFileSync(process.argv[1], JSON.stringify({ args: process.argv.slice(2), env: process.env, pid: process.pid })); setInterval(() => {}, 1000)`,
    join(rootDir, 'recorded.json'),
    ...args,
  ],
});
const oneshot: ProgramLauncher = (args) => ({
  command: process.execPath,
  args: ['-e', `process.exit(${args[0] ?? 0})`],
});

let root: string;
let runner: LocalUnitRunner;

async function writeNodeFile(path: string, content: string) {
  await mkdir(dirname(join(root, path)), { recursive: true });
  await writeFile(join(root, path), content);
}
const recorded = async () => JSON.parse(await readFile(join(root, 'recorded.json'), 'utf8'));

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'units-'));
  runner = new LocalUnitRunner({
    rootDir: root,
    programs: { '/opt/bin/recorder': recorder, '/usr/bin/oneshot': oneshot },
    stopTimeoutMs: 2000,
  });
});
afterEach(async () => {
  await runner.stopAll();
  await rm(root, { recursive: true, force: true });
});

describe('LocalUnitRunner', () => {
  it('runs a known program with the unit environment, drop-ins applied, and stops it', async () => {
    await writeNodeFile('/etc/default/recorder', 'FROM_FILE=yes\n# comment\nOVERRIDDEN=file\n');
    await writeNodeFile(
      '/etc/systemd/system/recorder.service',
      '[Unit]\nDescription=records\n[Service]\nEnvironmentFile=/etc/default/recorder\nEnvironment="OVERRIDDEN=unit" A=1\nExecStart=/opt/bin/recorder --flag=$A\n',
    );
    await writeNodeFile(
      '/etc/systemd/system/recorder.service.d/10-override.conf',
      '[Service]\nExecStart=\nExecStart=/opt/bin/recorder --from-drop-in\nEnvironment=B=2\n',
    );
    await runner.start('recorder.service');
    expect(runner.status('recorder.service').activeState).toBe('active');
    const seen = await waitFor('the unit to record', () => recorded().catch(() => undefined), { timeoutMs: 10_000 });
    expect(seen.args).toEqual(['--from-drop-in']);
    expect(seen.env).toMatchObject({ FROM_FILE: 'yes', OVERRIDDEN: 'unit', A: '1', B: '2' });
    expect(seen.pid).toBe(runner.status('recorder.service').pid);

    await runner.stop('recorder.service');
    expect(runner.status('recorder.service')).toMatchObject({ activeState: 'inactive' });
    expect(() => process.kill(seen.pid, 0)).toThrow();
  });

  it("expands a bare $VAR word into its words (none when unset), as systemd does for Gardener's $KUBELET_EXTRA_ARGS", async () => {
    await writeNodeFile('/etc/environment', '');
    await writeNodeFile('/var/lib/kubelet/extra_args', 'KUBELET_EXTRA_ARGS=--a=1 --b=2\n');
    const unit = (extra: string) =>
      `[Service]\nEnvironmentFile=/etc/environment\nEnvironmentFile=-${extra}\nExecStart=/opt/bin/recorder \\\n    --v=2 $KUBELET_EXTRA_ARGS --x=\${KUBELET_EXTRA_ARGS}\n`;
    await writeNodeFile('/etc/systemd/system/recorder.service', unit('/var/lib/kubelet/extra_args'));
    await runner.start('recorder.service');
    let seen = await waitFor('the unit to record', () => recorded().catch(() => undefined), { timeoutMs: 10_000 });
    expect(seen.args).toEqual(['--v=2', '--a=1', '--b=2', '--x=--a=1 --b=2']);
    await runner.stop('recorder.service');

    await rm(join(root, 'recorded.json'));
    await writeNodeFile('/etc/systemd/system/recorder.service', unit('/var/lib/kubelet/missing'));
    await runner.daemonReload();
    await runner.start('recorder.service');
    seen = await waitFor('the unit to record', () => recorded().catch(() => undefined), { timeoutMs: 10_000 });
    expect(seen.args).toEqual(['--v=2', '--x=']);
  });

  it('fails a unit whose program the machine does not know, visibly', async () => {
    await writeNodeFile('/etc/systemd/system/docker.service', '[Service]\nExecStart=/usr/bin/dockerd -H fd://\n');
    await expect(runner.start('docker.service')).rejects.toThrow(
      'ExecStart program /usr/bin/dockerd of unit docker.service is not known to this machine',
    );
    expect(runner.status('docker.service')).toMatchObject({
      activeState: 'failed',
      message: expect.stringContaining('/usr/bin/dockerd'),
    });
    await expect(runner.start('missing.service')).rejects.toThrow('Unit missing.service not found.');
  });

  it('restarts a killed process when the unit says Restart=always', async () => {
    await writeNodeFile(
      '/etc/systemd/system/kubelet.service',
      '[Service]\nRestart=always\nRestartSec=100ms\nExecStart=/opt/bin/recorder\n',
    );
    await runner.start('kubelet.service');
    const first = runner.status('kubelet.service').pid!;
    process.kill(first, 'SIGKILL');
    const status = await waitFor(
      'the unit to run again',
      () => {
        const s = runner.status('kubelet.service');
        return s.activeState === 'active' && s.pid !== first ? s : undefined;
      },
      { timeoutMs: 10_000 },
    );
    expect(status.restarts).toBe(1);
  });

  it('reports a oneshot unit that exits non-zero as failed', async () => {
    await writeNodeFile('/etc/systemd/system/setup.service', '[Service]\nType=oneshot\nExecStart=/usr/bin/oneshot 3\n');
    await expect(runner.start('setup.service')).rejects.toThrow('ExecStart exited with 3');
    expect(runner.status('setup.service').activeState).toBe('failed');
    await writeNodeFile('/etc/systemd/system/ok.service', '[Service]\nType=oneshot\nExecStart=/usr/bin/oneshot 0\n');
    await runner.start('ok.service');
    expect(runner.status('ok.service').activeState).toBe('inactive');
  });

  it('starts enabled units when the machine boots, not disabled ones', async () => {
    await writeNodeFile('/etc/systemd/system/a.service', '[Service]\nExecStart=/opt/bin/recorder\n');
    await writeNodeFile('/etc/systemd/system/b.service', '[Service]\nExecStart=/opt/bin/recorder\n');
    await runner.enable('a.service');
    await runner.enable('b.service');
    await runner.disable('b.service');

    const rebooted = new LocalUnitRunner({ rootDir: root, programs: { '/opt/bin/recorder': recorder } });
    await rebooted.boot();
    try {
      expect(rebooted.status('a.service')).toMatchObject({ activeState: 'active', enabled: true });
      expect(rebooted.status('b.service')).toMatchObject({ activeState: 'inactive', enabled: false });
    } finally {
      await rebooted.stopAll();
    }
  });
});
