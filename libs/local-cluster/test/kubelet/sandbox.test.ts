// A Pod stays in its sandbox: a container command, exec probe or `kubectl exec` can only run a program its image
// declares in the image map (anything else fails as a missing binary does in a container runtime), and the kubelet
// never writes outside the pod directory for a path the Pod spec controls.
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { kubectl, runKubectl } from '@gardener-ts/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { containerStatus, startHarness, type Harness } from './harness.js';

let h: Harness;
let outside: string;

beforeAll(async () => {
  h = await startHarness();
  outside = await mkdtemp(join(tmpdir(), 'sandbox-outside-'));
}, 60_000);

afterAll(async () => {
  await h?.stop();
  await rm(outside, { recursive: true, force: true });
});

/** `kubectl apply` of a Pod on the harness node. */
const applyPod = (name: string, spec: object) =>
  kubectl(h.cluster.kubeconfigPath, ['apply', '-f', '-'], {
    input: JSON.stringify({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name, namespace: 'default' },
      spec: { nodeName: 'local-node', ...spec },
    }),
  });

describe('a container command outside the image', () => {
  it('does not run: the container ends with StartError, exit code 127 and the runtime message', async () => {
    const marker = join(outside, 'created-by-pod');
    await applyPod('host-command', {
      restartPolicy: 'Never',
      containers: [
        { name: 'touch', image: 'fixture', command: ['touch', marker] },
        { name: 'abs', image: 'fixture', command: ['/usr/bin/touch', marker] },
      ],
    });
    const pod = await h.waitForPod('host-command', 'Failed', (p) => p.status?.phase === 'Failed');
    expect(containerStatus(pod, 'touch')?.state?.terminated).toMatchObject({
      exitCode: 127,
      reason: 'StartError',
      message: 'exec: "touch": executable file not found in $PATH',
    });
    expect(containerStatus(pod, 'abs')?.state?.terminated).toMatchObject({
      exitCode: 127,
      reason: 'StartError',
      message: 'exec: "/usr/bin/touch": stat /usr/bin/touch: no such file or directory',
    });
    expect(existsSync(marker)).toBe(false);
    const events = await kubectl(h.cluster.kubeconfigPath, [
      'get',
      'events',
      '--field-selector',
      'involvedObject.name=host-command',
      '-o',
      'json',
    ]);
    expect(JSON.parse(events).items).toContainEqual(
      expect.objectContaining({
        reason: 'Failed',
        type: 'Warning',
        message: 'Error: exec: "touch": executable file not found in $PATH',
      }),
    );
  });

  it('runs a program the image map declares for the image, by name', async () => {
    await applyPod('declared-command', {
      restartPolicy: 'Never',
      containers: [{ name: 'main', image: 'fixture', command: ['node', '-e', 'console.log("from the image")'] }],
    });
    const pod = await h.waitForPod('declared-command', 'Succeeded', (p) => p.status?.phase === 'Succeeded');
    expect(containerStatus(pod, 'main')?.state?.terminated).toMatchObject({ exitCode: 0, reason: 'Completed' });
    expect(await kubectl(h.cluster.kubeconfigPath, ['logs', 'declared-command'])).toBe('from the image\n');
  });

  it('fails an exec probe and kubectl exec naming a program outside the image', async () => {
    const marker = join(outside, 'created-by-probe');
    await applyPod('probe-command', {
      terminationGracePeriodSeconds: 1,
      containers: [
        {
          name: 'main',
          image: 'fixture',
          args: ['sleep'],
          readinessProbe: { exec: { command: ['touch', marker] }, periodSeconds: 1 },
        },
      ],
    });
    await h.waitForPod('probe-command', 'running', (p) => !!containerStatus(p, 'main')?.state?.running);
    const exec = await runKubectl(h.cluster.kubeconfigPath, ['exec', 'probe-command', '--', 'touch', marker]);
    expect(exec.code).not.toBe(0);
    expect(exec.stderr).toContain('exec: "touch": executable file not found in $PATH');
    // The probe keeps failing (never ready) and never created the file.
    await new Promise((r) => setTimeout(r, 2500));
    const pod = await h.core.readNamespacedPod({ name: 'probe-command', namespace: 'default' });
    expect(containerStatus(pod, 'main')?.ready).toBe(false);
    expect(existsSync(marker)).toBe(false);
  });
});

describe('paths the Pod spec controls', () => {
  it('keeps a workingDir with .. inside the container root, as a container runtime does', async () => {
    const escape = join(outside, 'wd');
    const workingDir = `${'/..'.repeat(20)}${escape}`;
    await applyPod('working-dir', {
      restartPolicy: 'Never',
      containers: [
        { name: 'main', image: 'fixture', workingDir, command: ['node', '-e', 'console.log(process.cwd())'] },
      ],
    });
    await h.waitForPod('working-dir', 'Succeeded', (p) => p.status?.phase === 'Succeeded');
    const cwd = (await kubectl(h.cluster.kubeconfigPath, ['logs', 'working-dir'])).trim();
    expect(cwd.startsWith(h.dataDir)).toBe(true);
    expect(cwd.endsWith(escape)).toBe(true);
    expect(existsSync(escape)).toBe(false);
  });
});
