// How the local kubelet runs containers over time: probes, restart policies, init containers, back-off, images it
// cannot run.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, waitFor } from '@gardener-ts/testing';
import { condition, containerPid, containerStatus, processAlive, startHarness, type Harness } from './harness.js';

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
}, 60_000);
afterAll(async () => h?.stop());

const fast = { periodSeconds: 1, timeoutSeconds: 1, failureThreshold: 1 };

// Every test runs its own Pod and mostly waits for probe periods and back-off: they run side by side (at most
// vitest's maxConcurrency at once) on the one kubelet, as Pods do.

describe.concurrent('probes', () => {
  it('keeps a container that fails its HTTP readiness probe unready while it runs', async () => {
    const port = await freePort();
    await h.createPod('unready', {
      containers: [
        {
          name: 'web',
          image: 'fixture',
          args: ['http', String(port), '500'],
          readinessProbe: { httpGet: { port, path: '/ready' }, ...fast },
        },
      ],
    });
    await waitFor('the server to answer', async () => (await fetch(`http://127.0.0.1:${port}/`)).status === 500);
    // Several probe periods later it is still running and still not ready.
    await new Promise((r) => setTimeout(r, 2500));
    const pod = await h.core.readNamespacedPod({ name: 'unready', namespace: 'default' });
    expect(pod.status?.phase).toBe('Running');
    expect(containerStatus(pod, 'web')).toMatchObject({ ready: false, restartCount: 0 });
    expect(condition(pod, 'Ready')).toBe('False');
    expect(pod.status?.conditions?.find((c) => c.type === 'ContainersReady')?.message).toBe(
      'containers with unready status: [web]',
    );
  });

  it('makes a container ready once its HTTP readiness probe succeeds', async () => {
    const port = await freePort();
    await h.createPod('ready', {
      containers: [
        {
          name: 'web',
          image: 'fixture',
          args: ['http', String(port), '200'],
          readinessProbe: { httpGet: { port: 'http' }, ...fast },
          ports: [{ name: 'http', containerPort: port }],
        },
      ],
    });
    const pod = await h.waitForPod('ready', 'Ready', (p) => condition(p, 'Ready') === 'True');
    expect(containerStatus(pod, 'web')?.ready).toBe(true);
  });

  it('reports Ready again after the control plane marked the Pod not ready (its node had gone silent)', async () => {
    await h.createPod('marked', { containers: [{ name: 'main', image: 'fixture', args: ['sleep'] }] });
    const pod = await h.waitForPod('marked', 'Ready', (p) => condition(p, 'Ready') === 'True');
    // What the node lifecycle controller writes for the pods of an Unknown node: Ready False, nothing else.
    const conditions = pod.status!.conditions!.map((c) =>
      c.type === 'Ready' ? { ...c, status: 'False', lastTransitionTime: new Date() } : c,
    );
    await h.core.replaceNamespacedPodStatus({
      name: 'marked',
      namespace: 'default',
      body: { ...pod, status: { ...pod.status, conditions } },
    });
    const again = await h.waitForPod('marked', 'Ready again', (p) => condition(p, 'Ready') === 'True', 5_000);
    expect(containerStatus(again, 'main')).toMatchObject({ ready: true, restartCount: 0 });
  });

  it('restarts a container whose liveness probe fails', async () => {
    const port = await freePort();
    await h.createPod('dead', {
      containers: [
        { name: 'main', image: 'fixture', args: ['sleep'], livenessProbe: { tcpSocket: { port }, ...fast } },
      ],
    });
    const pod = await h.waitForPod('dead', 'restarted', (p) => (containerStatus(p, 'main')?.restartCount ?? 0) >= 1);
    const last = containerStatus(pod, 'main')?.lastState?.terminated;
    // SIGTERM: the program exits 0 from its handler, or 143 if the signal came before the handler was installed.
    expect([0, 143]).toContain(last?.exitCode);
    expect(last?.message).toContain('liveness probe failed');
  });

  it('does not run liveness before an exec startup probe succeeds, and counts the container started after it', async () => {
    await h.createPod('slow-start', {
      containers: [
        {
          name: 'main',
          image: 'fixture',
          args: ['sleep'],
          startupProbe: {
            exec: { command: [process.execPath, '-e', 'process.exit(require("fs").existsSync("ok") ? 0 : 1)'] },
            periodSeconds: 1,
            failureThreshold: 30,
          },
          livenessProbe: { exec: { command: ['false'] }, ...fast },
        },
      ],
    });
    await h.waitForPod('slow-start', 'running', (p) => containerStatus(p, 'main')?.state?.running !== undefined);
    await new Promise((r) => setTimeout(r, 2000));
    const waiting = await h.core.readNamespacedPod({ name: 'slow-start', namespace: 'default' });
    expect(containerStatus(waiting, 'main')).toMatchObject({ started: false, restartCount: 0 });
    // The startup probe runs in the container's working directory: create the file it waits for.
    const exec = await h.kubeletRequest(
      `/exec/default/slow-start/main?command=${encodeURIComponent(process.execPath)}&command=-e&command=${encodeURIComponent('require("fs").writeFileSync("ok", "")')}`,
      'POST',
    );
    expect(exec.status).toBe(200);
    const restarted = await h.waitForPod(
      'slow-start',
      'restarted by the failing liveness probe',
      (p) => (containerStatus(p, 'main')?.restartCount ?? 0) >= 1,
    );
    expect(containerStatus(restarted, 'main')?.lastState?.terminated?.message).toContain('liveness probe failed');
  });
});

describe.concurrent('restart policy', () => {
  it('fails a restartPolicy Never Pod whose container exits 1, with the exit code', async () => {
    await h.createPod('fails', {
      restartPolicy: 'Never',
      containers: [{ name: 'main', image: 'fixture', args: ['exit', '1'] }],
    });
    const pod = await h.waitForPod('fails', 'Failed', (p) => p.status?.phase === 'Failed');
    const status = containerStatus(pod, 'main')!;
    expect(status.state?.terminated).toMatchObject({ exitCode: 1, reason: 'Error' });
    expect(status.state?.terminated?.finishedAt).toBeDefined();
    expect(status.restartCount).toBe(0);
    expect(condition(pod, 'Ready')).toBe('False');
  });

  it('completes an OnFailure Pod whose container exits 0', async () => {
    await h.createPod('completes', {
      restartPolicy: 'OnFailure',
      containers: [{ name: 'main', image: 'fixture', args: ['exit', '0'] }],
    });
    const pod = await h.waitForPod('completes', 'Succeeded', (p) => p.status?.phase === 'Succeeded');
    expect(containerStatus(pod, 'main')?.state?.terminated).toMatchObject({ exitCode: 0, reason: 'Completed' });
  });

  it('restarts a killed process with back-off, counts the restarts and keeps the previous log', async () => {
    await h.createPod('crashy', { containers: [{ name: 'main', image: 'fixture', args: ['sleep'] }] });
    let pod = await h.waitForPod('crashy', 'running', (p) => containerStatus(p, 'main')?.state?.running !== undefined);
    for (let restarts = 1; restarts <= 3; restarts++) {
      const pid = containerPid(pod, 'main');
      await waitFor('the program to start', async () =>
        (await h.kubeletRequest('/containerLogs/default/crashy/main')).body.toString().includes('started'),
      );
      process.kill(pid, 'SIGKILL');
      pod = await h.waitForPod(
        'crashy',
        `restart ${restarts}`,
        (p) =>
          containerStatus(p, 'main')?.restartCount === restarts &&
          containerStatus(p, 'main')?.state?.running !== undefined,
      );
      expect(containerPid(pod, 'main')).not.toBe(pid);
      expect(processAlive(pid)).toBe(false);
      expect(containerStatus(pod, 'main')?.lastState?.terminated).toMatchObject({
        exitCode: 137,
        reason: 'Error',
        containerID: `local://${pid}`,
      });
    }
    const previous = await h.kubeletRequest('/containerLogs/default/crashy/main?previous=true');
    expect(previous.status).toBe(200);
    expect(previous.body.toString()).toBe('started\n');
  });

  it('reports CrashLoopBackOff while waiting to restart a crashing container', async () => {
    await h.createPod('crashloop', { containers: [{ name: 'main', image: 'fixture', args: ['exit', '2'] }] });
    const pod = await h.waitForPod(
      'crashloop',
      'in CrashLoopBackOff',
      (p) => containerStatus(p, 'main')?.state?.waiting?.reason === 'CrashLoopBackOff',
    );
    expect(pod.status?.phase).toBe('Running');
    expect(containerStatus(pod, 'main')?.lastState?.terminated?.exitCode).toBe(2);
    expect(containerStatus(pod, 'main')?.state?.waiting?.message).toContain('restarting failed container=main');
  });
});

describe.concurrent('init containers', () => {
  it('runs them one after another before the containers', async () => {
    const append = (name: string) => ({
      name,
      image: 'fixture',
      args: ['append', '/work/order', name],
      volumeMounts: [{ name: 'work', mountPath: '/work' }],
    });
    await h.createPod('ordered', {
      initContainers: [append('first'), append('second')],
      containers: [
        {
          name: 'main',
          image: 'fixture',
          args: ['dump', '/work/order'],
          volumeMounts: [{ name: 'work', mountPath: '/work' }],
        },
      ],
      volumes: [{ name: 'work', emptyDir: {} }],
    });
    const pod = await h.waitForPod(
      'ordered',
      'Running',
      (p) => p.status?.phase === 'Running' && condition(p, 'Initialized') === 'True',
    );
    for (const name of ['first', 'second'])
      expect(containerStatus(pod, name)?.state?.terminated).toMatchObject({ exitCode: 0, reason: 'Completed' });
    const log = await waitFor('the dump', async () => {
      const res = await h.kubeletRequest('/containerLogs/default/ordered/main');
      return res.body.toString().includes('{') ? res.body.toString() : undefined;
    });
    expect(Object.values(JSON.parse(log).files)).toEqual(['first\nsecond\n']);
  });

  it('keeps the Pod Pending and does not start the containers while an init container fails', async () => {
    await h.createPod('blocked', {
      initContainers: [{ name: 'setup', image: 'fixture', args: ['exit', '3'] }],
      containers: [{ name: 'main', image: 'fixture', args: ['sleep'] }],
    });
    const pod = await h.waitForPod(
      'blocked',
      'init restarted',
      (p) => (containerStatus(p, 'setup')?.restartCount ?? 0) >= 1,
    );
    expect(pod.status?.phase).toBe('Pending');
    expect(condition(pod, 'Initialized')).toBe('False');
    expect(containerStatus(pod, 'main')?.state?.running).toBeUndefined();
  });
});

describe.concurrent('images', () => {
  it('reports an image without a local program as ErrImagePull, naming the image', async () => {
    await h.createPod('unmapped', { containers: [{ name: 'main', image: 'docker.io/library/nginx:1.27' }] });
    const pod = await h.waitForPod('unmapped', 'ErrImagePull', (p) =>
      /ErrImagePull|ImagePullBackOff/.test(containerStatus(p, 'main')?.state?.waiting?.reason ?? ''),
    );
    expect(pod.status?.phase).toBe('Pending');
    expect(containerStatus(pod, 'main')?.state?.waiting?.message).toContain(
      'image "docker.io/library/nginx:1.27" is not in the image map',
    );
    const later = await h.waitForPod(
      'unmapped',
      'ImagePullBackOff',
      (p) => containerStatus(p, 'main')?.state?.waiting?.reason === 'ImagePullBackOff',
    );
    expect(containerStatus(later, 'main')?.state?.waiting?.message).toContain(
      'Back-off pulling image "docker.io/library/nginx:1.27"',
    );
  });
});

describe.concurrent('configuration', () => {
  it('waits with CreateContainerConfigError for a missing ConfigMap and starts once it exists', async () => {
    await h.createPod('needs-config', {
      containers: [
        {
          name: 'main',
          image: 'fixture',
          args: ['sleep'],
          env: [{ name: 'X', valueFrom: { configMapKeyRef: { name: 'late', key: 'x' } } }],
        },
      ],
    });
    const waiting = await h.waitForPod(
      'needs-config',
      'CreateContainerConfigError',
      (p) => containerStatus(p, 'main')?.state?.waiting?.reason === 'CreateContainerConfigError',
    );
    expect(containerStatus(waiting, 'main')?.state?.waiting?.message).toBe('configmap "late" not found');
    await h.core.createNamespacedConfigMap({
      namespace: 'default',
      body: { metadata: { name: 'late' }, data: { x: '1' } },
    });
    await h.waitForPod('needs-config', 'running', (p) => containerStatus(p, 'main')?.state?.running !== undefined);
  });
});
