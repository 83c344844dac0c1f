// Container logs are rotated as the kubelet rotates them (containerLogMaxSize, containerLogMaxFiles): a chatty
// container cannot fill the disk, and `kubectl logs` still shows its latest output.
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { kubectl } from '@gardener-ts/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.js';

let h: Harness;

beforeAll(async () => {
  h = await startHarness({ containerLogMaxSize: '1Ki', containerLogMaxFiles: 3 });
}, 60_000);

afterAll(() => h?.stop());

describe('container log rotation', () => {
  it('keeps at most containerLogMaxFiles files of at most containerLogMaxSize, kubectl logs reading the current one', async () => {
    await kubectl(h.cluster.kubeconfigPath, ['apply', '-f', '-'], {
      input: JSON.stringify({
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'chatty', namespace: 'default' },
        spec: {
          nodeName: 'local-node',
          restartPolicy: 'Never',
          containers: [{ name: 'main', image: 'fixture', args: ['count', '300', '0'] }],
        },
      }),
    });
    const pod = await h.waitForPod('chatty', 'Succeeded', (p) => p.status?.phase === 'Succeeded');
    const logDir = join(h.dataDir, 'pods', pod.metadata!.uid!, 'logs', 'main');
    const files = (await readdir(logDir)).sort();
    expect(files).toContain('0.log');
    expect(files).toHaveLength(3);
    for (const name of files) {
      expect(name).toMatch(/^0\.log(\.\d{8}-\d{6}(-\d+)?)?$/);
      expect((await stat(join(logDir, name))).size).toBeLessThanOrEqual(1024);
    }
    const logs = (await kubectl(h.cluster.kubeconfigPath, ['logs', 'chatty'])).trimEnd().split('\n');
    expect(logs.at(-1)).toBe('300');
    // Only the current file: consecutive lines up to the last, far fewer than were written.
    expect(logs.length).toBeLessThan(100);
    expect(logs).toEqual(Array.from({ length: logs.length }, (_, i) => String(300 - logs.length + 1 + i)));
  });
});
