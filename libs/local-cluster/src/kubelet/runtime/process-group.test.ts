import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ContainerProcess } from './container-process.js';
import { containerTree, processTable } from './process-group.js';

describe('containerTree', () => {
  it("holds the group's members and everything they started, also in groups of their own", () => {
    const rows = [
      { pid: 1, ppid: 0, pgrp: 1 },
      { pid: 100, ppid: 1, pgrp: 100 }, // the container's main process
      { pid: 101, ppid: 100, pgrp: 100 }, // a child in its group (a machine's kubelet)
      { pid: 200, ppid: 101, pgrp: 200 }, // a detached child of it (a Pod of that kubelet)
      { pid: 201, ppid: 200, pgrp: 200 },
      { pid: 300, ppid: 1, pgrp: 300 }, // another container
      { pid: 301, ppid: 300, pgrp: 301 },
    ];
    expect(containerTree(rows, 100).sort((a, b) => a - b)).toEqual([100, 101, 200, 201]);
    expect(containerTree(rows, 300).sort((a, b) => a - b)).toEqual([300, 301]);
    expect(containerTree(rows, 999)).toEqual([]);
  });
});

describe('ContainerProcess.stop', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'container-process-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  // Running, not a zombie waiting for a parent to reap it.
  const alive = (pid: number) => processTable().some((r) => r.pid === pid && r.state !== 'Z');

  it('kills, once the grace period is over, what the container started in a session of its own', async () => {
    const pidFile = join(dir, 'detached.pid');
    // Everything here ignores SIGTERM, so the grace period runs out; the sleep leaves the container's group.
    const container = await ContainerProcess.start({
      argv: ['sh', '-c', `trap '' TERM; sh -c 'setsid sleep 300 & echo $! > ${pidFile}; wait' & wait`],
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
      cwd: dir,
      logPath: join(dir, 'container.log'),
    });
    let detached = 0;
    for (let i = 0; i < 50 && !detached; i++) {
      detached = Number((await readFile(pidFile, 'utf8').catch(() => '')).trim());
      if (!detached) await new Promise((r) => setTimeout(r, 100));
    }
    expect(alive(detached)).toBe(true);
    await container.stop(300);
    for (let i = 0; i < 20 && alive(detached); i++) await new Promise((r) => setTimeout(r, 50));
    expect(alive(detached)).toBe(false);
  });

  it('kills what the container started in a session of its own when its main process ends first on SIGTERM', async () => {
    const pidFile = join(dir, 'left-behind.pid');
    // The main process exits at once on SIGTERM (as a machine's kubelet may before its Pods): the sleep is
    // re-parented, out of the container's tree by the time the exit is seen.
    const container = await ContainerProcess.start({
      argv: ['sh', '-c', `setsid sleep 300 & echo $! > ${pidFile}; trap 'exit 0' TERM; wait`],
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
      cwd: dir,
      logPath: join(dir, 'left-behind.log'),
    });
    let detached = 0;
    for (let i = 0; i < 50 && !detached; i++) {
      detached = Number((await readFile(pidFile, 'utf8').catch(() => '')).trim());
      if (!detached) await new Promise((r) => setTimeout(r, 100));
    }
    expect(alive(detached)).toBe(true);
    const exit = await container.stop(30_000);
    expect(exit.exitCode).toBe(0);
    for (let i = 0; i < 20 && alive(detached); i++) await new Promise((r) => setTimeout(r, 50));
    expect(alive(detached)).toBe(false);
  });
});
