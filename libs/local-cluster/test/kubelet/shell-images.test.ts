// Shell images through the local kubelet: busybox and alpine Pods run the host's programs their containers name
// (`sh`, `sleep`), with volumes, working directory and environment as for any program; a program the host lacks fails
// as a missing binary; deleting the Pod ends the whole process group.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '@gardener-ts/testing';
import { containerPid, containerStatus, processAlive, startHarness, type Harness } from './harness.js';

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
}, 60_000);
afterAll(async () => h?.stop());

/** The processes of process group `pgid` (field 5 of /proc/<pid>/stat). */
function groupMembers(pgid: number): number[] {
  const members: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[2]) === pgid) members.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return members;
}

async function deletePod(name: string): Promise<void> {
  await h.core.deleteNamespacedPod({ name, namespace: 'default' });
  await waitFor(`pod ${name} to be gone`, async () =>
    h.core.readNamespacedPod({ name, namespace: 'default' }).then(
      () => false,
      () => true,
    ),
  );
}

describe.concurrent('shell images', () => {
  it('runs busybox `sh -c` with an emptyDir, a working directory and variables, and reports its exit code', async () => {
    await h.createPod('busybox-writes', {
      restartPolicy: 'Never',
      containers: [
        {
          name: 'main',
          image: 'busybox:1.36',
          command: ['sh', '-c', 'echo "$GREETING" > /scratch/file; pwd > here; sleep 1; exit 3'],
          env: [{ name: 'GREETING', value: 'hi' }],
          workingDir: '/scratch',
          volumeMounts: [{ name: 'scratch', mountPath: '/scratch' }],
        },
      ],
      volumes: [{ name: 'scratch', emptyDir: {} }],
    });
    const pod = await h.waitForPod('busybox-writes', 'Failed', (p) => p.status?.phase === 'Failed');
    expect(containerStatus(pod, 'main')?.state?.terminated).toMatchObject({ exitCode: 3, reason: 'Error' });
    const volume = join(h.dataDir, 'pods', pod.metadata!.uid!, 'volumes/scratch');
    expect(readFileSync(join(volume, 'file'), 'utf8')).toBe('hi\n');
    expect(readFileSync(join(volume, 'here'), 'utf8')).toBe(`${volume}\n`);
  });

  it('completes a busybox container that sets no command: the image runs sh, which exits without input', async () => {
    await h.createPod('busybox-default', {
      restartPolicy: 'Never',
      containers: [{ name: 'main', image: 'docker.io/library/busybox' }],
    });
    const pod = await h.waitForPod('busybox-default', 'Succeeded', (p) => p.status?.phase === 'Succeeded');
    expect(containerStatus(pod, 'main')?.state?.terminated).toMatchObject({ exitCode: 0, reason: 'Completed' });
  });

  it('runs `kubectl run --image=busybox -- sleep 3600` (args only) until the Pod is deleted', async () => {
    await h.createPod('busybox-sleeps', {
      terminationGracePeriodSeconds: 0,
      containers: [{ name: 'main', image: 'busybox', args: ['sleep', '3600'] }],
    });
    const pod = await h.waitForPod('busybox-sleeps', 'running', (p) => !!containerStatus(p, 'main')?.state?.running);
    const pid = containerPid(pod, 'main');
    expect(readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')).toEqual([
      expect.stringMatching(/\/sleep$/),
      '3600',
      '',
    ]);
    await deletePod('busybox-sleeps');
    await waitFor('the sleep to end', async () => !processAlive(pid));
  });

  it("runs Gardener's alpine `sh -c 'sleep 3600'` and ends the shell and its sleep on Pod deletion", async () => {
    await h.createPod('alpine-sleeps', {
      terminationGracePeriodSeconds: 0,
      containers: [
        {
          name: 'main',
          image: 'europe-docker.pkg.dev/gardener-project/releases/3rd/alpine:3.19.1',
          command: ['/bin/sh', '-c', 'sleep 3600'],
        },
      ],
    });
    const pod = await h.waitForPod('alpine-sleeps', 'running', (p) => !!containerStatus(p, 'main')?.state?.running);
    const pid = containerPid(pod, 'main');
    await waitFor('the sleep to start', async () =>
      groupMembers(pid).some((member) => readFileSync(`/proc/${member}/cmdline`, 'utf8').startsWith('sleep')),
    );
    await deletePod('alpine-sleeps');
    await waitFor('the process group to end', async () => groupMembers(pid).length === 0);
  });

  it('fails a program the host does not have as a missing binary: StartError, exit code 127', async () => {
    await h.createPod('busybox-missing', {
      restartPolicy: 'Never',
      containers: [{ name: 'main', image: 'alpine', command: ['no-such-program-here', '--flag'] }],
    });
    const pod = await h.waitForPod('busybox-missing', 'Failed', (p) => p.status?.phase === 'Failed');
    expect(containerStatus(pod, 'main')?.state?.terminated).toMatchObject({
      exitCode: 127,
      reason: 'StartError',
      message: 'exec: "no-such-program-here": executable file not found in $PATH',
    });
  });
});
