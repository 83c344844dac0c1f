// No Pod process outlives the kubelet: stop() ends them, and a kubelet starting on the data dir of one that died
// kills what it left running.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '@gardener-ts/logging';
import { waitFor } from '@gardener-ts/testing';
import { ImageMap } from '../../src/images/image-map.js';
import { startKubelet } from '../../src/kubelet/kubelet.js';
import { recordPid } from '../../src/kubelet/runtime/pid-records.js';
import { containerPid, containerStatus, FIXTURE, processAlive, startHarness, type Harness } from './harness.js';

let h: Harness | undefined;
const strays: number[] = [];

afterEach(async () => {
  await h?.stop();
  h = undefined;
  for (const pid of strays.splice(0)) if (processAlive(pid)) process.kill(-pid, 'SIGKILL');
});

describe('kubelet lifetime', () => {
  it('stops every Pod process on stop()', async () => {
    h = await startHarness({ shutdownGraceMs: 1000 });
    await h.createPod('one', {
      containers: [
        { name: 'a', image: 'fixture', args: ['sleep'] },
        { name: 'b', image: 'fixture', args: ['sleep', '--ignore-term'] },
      ],
    });
    const pod = await h.waitForPod('one', 'both running', (p) =>
      ['a', 'b'].every((c) => containerStatus(p, c)?.state?.running),
    );
    const pids = [containerPid(pod, 'a'), containerPid(pod, 'b')];
    await h.kubelet.stop();
    for (const pid of pids) expect(processAlive(pid)).toBe(false);
  });

  it('runs a Pod again after a kubelet restart, counting it as a restart', async () => {
    const first = await startHarness();
    h = first;
    await first.createPod('survivor', { containers: [{ name: 'main', image: 'fixture', args: ['sleep'] }] });
    const before = await first.waitForPod(
      'survivor',
      'running',
      (p) => containerStatus(p, 'main')?.state?.running !== undefined,
    );
    await first.kubelet.stop();
    expect(processAlive(containerPid(before, 'main'))).toBe(false);

    const second = await startKubelet({
      kubeconfig: first.cluster.kubeconfigPath,
      nodeName: 'local-node',
      dataDir: first.dataDir,
      port: 0,
      imageMap: new ImageMap([{ image: 'fixture', command: [process.execPath, FIXTURE] }]),
      logger: createLogger({ name: 'second-kubelet', level: 'silent' }),
    });
    try {
      const after = await first.waitForPod(
        'survivor',
        'running again',
        (p) => containerStatus(p, 'main')?.restartCount === 1 && !!containerStatus(p, 'main')?.state?.running,
      );
      expect(processAlive(containerPid(after, 'main'))).toBe(true);
    } finally {
      await second.stop();
    }
  });

  it('kills processes a previous kubelet left behind and removes directories of Pods that are gone', async () => {
    const first = await startHarness();
    h = first;
    // What a crashed kubelet leaves: a recorded process group of a Pod the API server no longer knows.
    const stray = spawn(process.execPath, [FIXTURE, 'sleep'], { detached: true, stdio: 'ignore' });
    strays.push(stray.pid!);
    const podDir = join(first.dataDir, 'pods', 'gone-pod-uid');
    await mkdir(podDir, { recursive: true });
    await recordPid(podDir, 'main', stray.pid!);
    await first.kubelet.stop();
    expect(processAlive(stray.pid!)).toBe(true);

    const second = await startKubelet({
      kubeconfig: first.cluster.kubeconfigPath,
      nodeName: 'local-node',
      dataDir: first.dataDir,
      port: 0,
      logger: createLogger({ name: 'second-kubelet', level: 'silent' }),
    });
    try {
      await waitFor('the stray process to be killed', () => !processAlive(stray.pid!));
      expect(existsSync(podDir)).toBe(false);
    } finally {
      await second.stop();
    }
  });
});

describe('the pods directory', () => {
  it("is the kubelet user's alone (0700), also when an earlier kubelet left it wider", async () => {
    const first = await startHarness();
    h = first;
    const pods = join(first.dataDir, 'pods');
    const mode = async () => (await stat(pods)).mode & 0o777;
    expect(await mode()).toBe(0o700);
    await first.kubelet.stop();
    await chmod(pods, 0o755);

    const second = await startKubelet({
      kubeconfig: first.cluster.kubeconfigPath,
      nodeName: 'local-node',
      dataDir: first.dataDir,
      port: 0,
      imageMap: new ImageMap([{ image: 'fixture', command: [process.execPath, FIXTURE] }]),
      logger: createLogger({ name: 'second-kubelet', level: 'silent' }),
    });
    try {
      expect(await mode()).toBe(0o700);
    } finally {
      await second.stop();
    }
  });
});
