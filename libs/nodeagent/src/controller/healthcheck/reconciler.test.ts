// The kubelet health check with the real unit runner: a killed kubelet without Restart= is started again; an unhealthy
// one is restarted after three failed checks in a row, not before.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { waitFor } from '@gardener-ts/test-support';
import { LocalUnitRunner } from '../../units/runner.js';
import { KubeletHealthCheckReconciler } from './reconciler.js';

let root: string;
let units: LocalUnitRunner;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'health-'));
  units = new LocalUnitRunner({
    rootDir: root,
    programs: {
      '/opt/bin/kubelet': () => ({ command: process.execPath, args: ['-e', 'setInterval(() => {}, 1000)'] }),
    },
    stopTimeoutMs: 2000,
  });
  await mkdir(join(root, 'etc/systemd/system'), { recursive: true });
  await writeFile(join(root, 'etc/systemd/system/kubelet.service'), '[Service]\nExecStart=/opt/bin/kubelet\n');
  await units.enable('kubelet.service');
  await units.start('kubelet.service');
});
afterEach(async () => {
  await units.stopAll();
  await rm(root, { recursive: true, force: true });
});

describe('KubeletHealthCheckReconciler', () => {
  it('starts a killed kubelet again', async () => {
    const pid = units.status('kubelet.service').pid!;
    process.kill(pid, 'SIGKILL');
    await waitFor('the kubelet to be dead', () =>
      units.status('kubelet.service').activeState === 'failed' ? true : undefined,
    );
    await new KubeletHealthCheckReconciler({ units, probe: async () => true }).reconcile();
    expect(units.status('kubelet.service').activeState).toBe('active');
    expect(units.status('kubelet.service').pid).not.toBe(pid);
  });

  it('restarts an unhealthy kubelet after three failed checks in a row', async () => {
    const answers = [false, false, true, false, false, false];
    const check = new KubeletHealthCheckReconciler({ units, probe: async () => answers.shift()! });
    const pid = units.status('kubelet.service').pid;
    for (let i = 0; i < 5; i++) await check.reconcile();
    expect(units.status('kubelet.service').pid).toBe(pid);
    await check.reconcile();
    expect(units.status('kubelet.service').pid).not.toBe(pid);
    expect(units.status('kubelet.service').activeState).toBe('active');
  });
});
