// The OSC reconciler with a fake shoot client and the real local unit runner: a first OSC starts its units and writes
// its files; a change of one file restarts only the unit that names it; a removed unit is stopped and its file goes;
// the Node gets the OSC's checksum.
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { createLogger } from '@gardener-ts/logging';
import {
  ApiError,
  type Client,
  type KubernetesObject,
  type NodeObject,
  type Secret,
} from '@gardener-ts/controller-runtime';
import type { extensionsv1alpha1 } from '@gardener-ts/api';

type OperatingSystemConfig = extensionsv1alpha1.OperatingSystemConfig;
import { LocalUnitRunner } from '../../units/runner.js';
import { LastAppliedOSCPath, OperatingSystemConfigReconciler } from './reconciler.js';

const log = createLogger({ name: 'test', level: 'error' });
const req = { namespace: 'kube-system', name: 'gardener-node-agent-worker-1' };

function oscSecret(osc: OperatingSystemConfig, checksum: string): Secret {
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { ...req, annotations: { 'checksum/data-script': checksum } },
    data: { 'osc.yaml': Buffer.from(stringify(osc)).toString('base64') },
  };
}

const kubeletUnit = {
  name: 'kubelet.service',
  command: 'start',
  enable: true,
  content:
    '[Unit]\nDescription=kubelet daemon\n[Service]\nRestart=always\nExecStart=/opt/bin/kubelet --config=/var/lib/kubelet/config/kubelet\n',
  filePaths: ['/var/lib/kubelet/config/kubelet'],
};
const monitorUnit = {
  name: 'kubelet-monitor.service',
  command: 'start',
  enable: true,
  content: '[Service]\nRestart=always\nExecStart=/opt/bin/health-monitor kubelet\n',
};
const osc = (kubeletConfig: string, extra: Partial<OperatingSystemConfig['spec']> = {}): OperatingSystemConfig => ({
  apiVersion: 'extensions.gardener.cloud/v1alpha1',
  kind: 'OperatingSystemConfig',
  metadata: { name: 'worker-1-original', namespace: 'shoot--local--local' },
  spec: {
    type: 'local',
    purpose: 'reconcile',
    units: [kubeletUnit, monitorUnit],
    files: [
      {
        path: '/var/lib/kubelet/config/kubelet',
        permissions: 0o600,
        content: { inline: { encoding: 'b64', data: Buffer.from(kubeletConfig).toString('base64') } },
      },
    ],
    ...extra,
  },
});

class FakeShoot {
  objects = new Map<string, KubernetesObject>();
  patches: { name: string; patch: unknown }[] = [];
  client: Pick<Client, 'get' | 'patch'> = {
    get: (async (kind: { kind: string }, { name }: { name: string }) => {
      const obj = this.objects.get(`${kind.kind}/${name}`);
      if (!obj) throw new ApiError(404, 'NotFound', `${kind.kind} ${name} not found`);
      return structuredClone(obj);
    }) as any,
    patch: (async (kind: { kind: string }, { name }: { name: string }, { patch }: { patch: any }) => {
      this.patches.push({ name, patch });
      const obj = this.objects.get(`${kind.kind}/${name}`)!;
      obj.metadata = { ...obj.metadata, annotations: { ...obj.metadata?.annotations, ...patch.metadata.annotations } };
      return obj;
    }) as any,
  };
}

let root: string;
let units: LocalUnitRunner;
let shoot: FakeShoot;
let reconciler: OperatingSystemConfigReconciler;

const longRunning = () => ({ command: process.execPath, args: ['-e', 'setInterval(() => {}, 1000)'] });

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'osc-'));
  units = new LocalUnitRunner({
    rootDir: root,
    programs: { '/opt/bin/kubelet': longRunning, '/opt/bin/health-monitor': longRunning },
    stopTimeoutMs: 2000,
  });
  shoot = new FakeShoot();
  const node: NodeObject = { apiVersion: 'v1', kind: 'Node', metadata: { name: 'machine-0' } };
  shoot.objects.set('Node/machine-0', node);
  reconciler = new OperatingSystemConfigReconciler({
    client: shoot.client,
    rootDir: root,
    units,
    nodeName: 'machine-0',
  });
});
afterEach(async () => {
  await units.stopAll();
  await rm(root, { recursive: true, force: true });
});

describe('OperatingSystemConfigReconciler', () => {
  it('waits for the kubelet to register the Node it started, then annotates it', async () => {
    shoot.objects.delete('Node/machine-0');
    shoot.objects.set('Secret/' + req.name, oscSecret(osc('maxPods: 110\n'), 'sum-1'));
    expect(await reconciler.reconcile(req, { log })).toEqual({ requeueAfter: 5_000 });
    expect(units.status('kubelet.service')).toMatchObject({ activeState: 'active' });

    shoot.objects.set('Node/machine-0', { apiVersion: 'v1', kind: 'Node', metadata: { name: 'machine-0' } });
    expect(await reconciler.reconcile(req, { log })).toBeUndefined();
    expect(shoot.objects.get('Node/machine-0')!.metadata!.annotations).toEqual({
      'checksum/cloud-config-data': 'sum-1',
    });
  });

  it('applies a first OSC, then a changed file restarts only the unit that names it', async () => {
    shoot.objects.set('Secret/' + req.name, oscSecret(osc('maxPods: 110\n'), 'sum-1'));
    await reconciler.reconcile(req, { log });

    expect(await readFile(join(root, 'var/lib/kubelet/config/kubelet'), 'utf8')).toBe('maxPods: 110\n');
    expect((await stat(join(root, 'var/lib/kubelet/config/kubelet'))).mode & 0o777).toBe(0o600);
    expect(await readFile(join(root, 'etc/systemd/system/kubelet.service'), 'utf8')).toContain(
      'ExecStart=/opt/bin/kubelet',
    );
    const kubelet = units.status('kubelet.service');
    const monitor = units.status('kubelet-monitor.service');
    expect(kubelet).toMatchObject({ activeState: 'active', enabled: true });
    expect(monitor).toMatchObject({ activeState: 'active', enabled: true });
    expect(shoot.objects.get('Node/machine-0')!.metadata!.annotations).toEqual({
      'checksum/cloud-config-data': 'sum-1',
    });

    shoot.objects.set(
      'Secret/' + req.name,
      oscSecret(
        osc('maxPods: 50\n', {
          files: [
            {
              path: '/var/lib/kubelet/config/kubelet',
              content: { inline: { encoding: '', data: 'maxPods: 50\n' } },
            },
            { path: '/etc/motd', content: { inline: { encoding: '', data: 'welcome\n' } } },
          ],
        }),
        'sum-2',
      ),
    );
    await reconciler.reconcile(req, { log });

    expect(await readFile(join(root, 'var/lib/kubelet/config/kubelet'), 'utf8')).toBe('maxPods: 50\n');
    expect(await readFile(join(root, 'etc/motd'), 'utf8')).toBe('welcome\n');
    expect(units.status('kubelet.service').pid).not.toBe(kubelet.pid);
    expect(units.status('kubelet.service').activeState).toBe('active');
    expect(units.status('kubelet-monitor.service').pid).toBe(monitor.pid);
    expect(shoot.objects.get('Node/machine-0')!.metadata!.annotations).toEqual({
      'checksum/cloud-config-data': 'sum-2',
    });

    // The same OSC again: nothing is touched.
    const patches = shoot.patches.length;
    const pid = units.status('kubelet.service').pid;
    await reconciler.reconcile(req, { log });
    expect(units.status('kubelet.service').pid).toBe(pid);
    expect(shoot.patches.length).toBe(patches);
  });

  it('stops a removed unit and deletes its file; remembers the applied OSC', async () => {
    shoot.objects.set('Secret/' + req.name, oscSecret(osc('a'), 'sum-1'));
    await reconciler.reconcile(req, { log });
    const kubeletPid = units.status('kubelet.service').pid;
    shoot.objects.set('Secret/' + req.name, oscSecret(osc('a', { units: [kubeletUnit] }), 'sum-2'));
    await reconciler.reconcile(req, { log });
    expect(units.status('kubelet-monitor.service')).toMatchObject({ activeState: 'inactive', enabled: false });
    await expect(stat(join(root, 'etc/systemd/system/kubelet-monitor.service'))).rejects.toThrow();
    expect(units.status('kubelet.service').pid).toBe(kubeletPid);
    expect(await readFile(join(root, LastAppliedOSCPath), 'utf8')).not.toContain('kubelet-monitor');
  });

  it('fails visibly when a unit runs a program the machine does not know, and still starts the others', async () => {
    shoot.objects.set(
      'Secret/' + req.name,
      oscSecret(
        osc('a', {
          units: [
            kubeletUnit,
            { name: 'docker.service', command: 'start', content: '[Service]\nExecStart=/usr/bin/dockerd\n' },
          ],
        }),
        'sum-1',
      ),
    );
    await expect(reconciler.reconcile(req, { log })).rejects.toThrow(
      'starting docker.service: Job for docker.service failed: ExecStart program /usr/bin/dockerd of unit docker.service is not known to this machine',
    );
    expect(units.status('kubelet.service').activeState).toBe('active');
    expect(shoot.objects.get('Node/machine-0')!.metadata!.annotations).toBeUndefined();
  });
});
