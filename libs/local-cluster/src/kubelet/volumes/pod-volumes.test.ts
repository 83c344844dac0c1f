import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as k8s from '@kubernetes/client-node';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ObjectReader } from '../pods/object-reader.js';
import { containerMounts, assertMountsConfined } from './mounts.js';
import { materialiseVolumes, VolumeConfinementError, type VolumeContext } from './pod-volumes.js';
import type { ServiceAccountTokens } from './service-account-tokens.js';

// A ConfigMap as `kubectl create configmap app --from-literal=...` makes it.
const configMap: k8s.V1ConfigMap = {
  metadata: { name: 'app', namespace: 'default' },
  data: { 'app.yaml': 'port: 8080\n', other: 'x' },
};
const secret: k8s.V1Secret = {
  metadata: { name: 'creds', namespace: 'default' },
  data: { password: Buffer.from('s3cret').toString('base64') },
};

let base: string;
let podDir: string;
let outside: string;
let sentinel: string;

beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), 'pod-volumes-'));
  podDir = join(base, 'pods', 'uid-1');
  outside = join(base, 'outside');
  sentinel = join(outside, 'sentinel');
  await mkdir(podDir, { recursive: true });
  await mkdir(outside);
  await writeFile(sentinel, 'keep me');
});
afterEach(() => rm(base, { recursive: true, force: true }));

function context(volumes: k8s.V1Volume[]): VolumeContext {
  const core = {
    readNamespacedConfigMap: async ({ name }: { name: string }) =>
      name === 'app' ? configMap : Promise.reject(new Error('unexpected read')),
    readNamespacedSecret: async ({ name }: { name: string }) =>
      name === 'creds' ? secret : Promise.reject(new Error('unexpected read')),
  } as unknown as ConstructorParameters<typeof ObjectReader>[0];
  return {
    pod: { metadata: { name: 'p', namespace: 'default', uid: 'uid-1' }, spec: { containers: [], volumes } },
    podDir,
    reader: new ObjectReader(core, 'default'),
    tokens: {} as ServiceAccountTokens,
    allocatable: {},
  };
}

/** Everything under `outside`, with contents: must stay exactly the sentinel. */
async function outsideState(): Promise<Record<string, string>> {
  const names = await readdir(outside, { recursive: true });
  return Object.fromEntries(
    await Promise.all(names.map(async (n) => [n, await readFile(join(outside, n), 'utf8').catch(() => '<dir>')])),
  );
}

describe('materialiseVolumes confines every path to the pod directory', () => {
  const crafted: Array<[string, k8s.V1Volume]> = [
    ['a configMap volume named ../../x', { name: '../../../outside', configMap: { name: 'app' } }],
    ['a secret volume named with an absolute path', { name: '/tmp/x', secret: { secretName: 'creds' } }],
    ['an emptyDir named ..', { name: '..', emptyDir: {} }],
    [
      'an item path with ..',
      { name: 'cfg', configMap: { name: 'app', items: [{ key: 'app.yaml', path: '../../../../outside/sentinel' }] } },
    ],
    [
      'an absolute item path',
      { name: 'cfg', configMap: { name: 'app', items: [{ key: 'app.yaml', path: '/tmp/x' }] } },
    ],
    [
      'a projected item path with ..',
      {
        name: 'proj',
        projected: { sources: [{ secret: { name: 'creds', items: [{ key: 'password', path: 'a/../../b' }] } }] },
      },
    ],
  ];
  for (const [what, volume] of crafted) {
    it(`refuses ${what}, touching nothing outside`, async () => {
      const err = await materialiseVolumes(context([volume])).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(VolumeConfinementError);
      expect((err as Error).message).toContain(`volume ${JSON.stringify(volume.name)}`);
      expect(await outsideState()).toEqual({ sentinel: 'keep me' });
      expect(existsSync(join(base, 'pods', 'x'))).toBe(false);
    });
  }

  it('does not follow a symlink planted as a volume directory', async () => {
    await mkdir(join(podDir, 'volumes'), { recursive: true });
    await symlink(outside, join(podDir, 'volumes', 'cfg'));
    const err = await materialiseVolumes(context([{ name: 'cfg', configMap: { name: 'app' } }])).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(VolumeConfinementError);
    expect((err as Error).message).toContain('resolves through a symlink');
    // The kubelet would have deleted the files not in the ConfigMap: the sentinel is still there, nothing was added.
    expect(await outsideState()).toEqual({ sentinel: 'keep me' });
  });

  it('does not write through a symlink planted inside a volume', async () => {
    const ctx = context([
      { name: 'cfg', configMap: { name: 'app', items: [{ key: 'app.yaml', path: 'conf/app.yaml' }] } },
    ]);
    await materialiseVolumes(ctx);
    await rm(join(podDir, 'volumes', 'cfg', 'conf'), { recursive: true });
    await symlink(outside, join(podDir, 'volumes', 'cfg', 'conf'));
    await expect(materialiseVolumes(ctx)).rejects.toThrow(VolumeConfinementError);
    expect(await outsideState()).toEqual({ sentinel: 'keep me' });
  });

  it('writes well-formed volumes as before', async () => {
    const dirs = await materialiseVolumes(
      context([
        { name: 'cfg', configMap: { name: 'app', items: [{ key: 'app.yaml', path: 'conf/app.yaml' }] } },
        { name: 'creds', secret: { secretName: 'creds' } },
        { name: 'scratch', emptyDir: {} },
      ]),
    );
    expect(dirs.get('cfg')).toBe(join(podDir, 'volumes', 'cfg'));
    expect(await readFile(join(podDir, 'volumes', 'cfg', 'conf', 'app.yaml'), 'utf8')).toBe('port: 8080\n');
    expect(await readFile(join(podDir, 'volumes', 'creds', 'password'), 'utf8')).toBe('s3cret');
    expect(existsSync(join(podDir, 'volumes', 'scratch'))).toBe(true);
  });
});

describe('materialiseVolumes sets the volumes up side by side', () => {
  // An API server that answers only when the test says so: which objects were asked for before any answer came.
  function slowContext(volumes: k8s.V1Volume[]) {
    const asked: string[] = [];
    const answers: (() => void)[] = [];
    const read =
      (kind: string, objects: Record<string, unknown>) =>
      async ({ name }: { name: string }) => {
        asked.push(`${kind}/${name}`);
        await new Promise<void>((resolve) => answers.push(resolve));
        if (name in objects) return objects[name];
        throw new k8s.ApiException(404, 'not found', {}, {});
      };
    const core = {
      readNamespacedConfigMap: read('configmap', { app: configMap }),
      readNamespacedSecret: read('secret', { creds: secret, other: { data: { token: 'dA==' } } }),
    } as unknown as ConstructorParameters<typeof ObjectReader>[0];
    const ctx: VolumeContext = { ...context(volumes), reader: new ObjectReader(core, 'default') };
    return { ctx, asked, answerAll: () => answers.splice(0).forEach((answer) => answer()) };
  }

  it("asks for every volume's object before the first answer, and writes each volume", async () => {
    const { ctx, asked, answerAll } = slowContext([
      { name: 'cfg', configMap: { name: 'app' } },
      { name: 'creds', secret: { secretName: 'creds' } },
      { name: 'proj', projected: { sources: [{ secret: { name: 'other' } }, { configMap: { name: 'app' } }] } },
    ]);
    const done = materialiseVolumes(ctx);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(asked.sort()).toEqual(['configmap/app', 'secret/creds', 'secret/other']);
    answerAll();
    const dirs = await done;
    expect([...dirs.keys()]).toEqual(['cfg', 'creds', 'proj']);
    expect(await readFile(join(podDir, 'volumes', 'proj', 'token'), 'utf8')).toBe('t');
    expect(await readFile(join(podDir, 'volumes', 'proj', 'app.yaml'), 'utf8')).toBe('port: 8080\n');
  });

  it("fails with the first failing volume in the Pod's order", async () => {
    const { ctx, answerAll } = slowContext([
      { name: 'cfg', configMap: { name: 'app' } },
      { name: 'gone', secret: { secretName: 'missing' } },
      { name: '..', emptyDir: {} },
    ]);
    const done = materialiseVolumes(ctx).catch((err: unknown) => err);
    await new Promise((resolve) => setTimeout(resolve, 20));
    answerAll();
    expect(((await done) as Error).message).toBe('volume "gone": secret "missing" not found');
  });
});

describe('subPath mounts', () => {
  const volumeDirs = () => new Map([['data', join(podDir, 'volumes', 'data')]]);

  it('refuses a subPath that leaves its volume', () => {
    for (const subPath of ['../../../outside', '/etc', 'a/../../..']) {
      expect(() =>
        containerMounts({ name: 'c', volumeMounts: [{ name: 'data', mountPath: '/data', subPath }] }, volumeDirs()),
      ).toThrow(/path ".*" (leaves|is absolute)/);
    }
  });

  it('refuses a subPath that resolves through a symlink to outside the volume', async () => {
    await mkdir(join(podDir, 'volumes', 'data'), { recursive: true });
    await symlink(outside, join(podDir, 'volumes', 'data', 'link'));
    const mounts = containerMounts(
      { name: 'c', volumeMounts: [{ name: 'data', mountPath: '/data', subPath: 'link' }] },
      volumeDirs(),
    );
    await expect(assertMountsConfined(mounts)).rejects.toThrow('resolves through a symlink');
    const inside = containerMounts(
      { name: 'c', volumeMounts: [{ name: 'data', mountPath: '/data', subPath: 'sub/dir' }] },
      volumeDirs(),
    );
    await expect(assertMountsConfined(inside)).resolves.toBeUndefined();
  });
});

describe('hostPath volumes of a local machine', () => {
  it("are the machine's paths, below its root directory — `..` does not leave it", async () => {
    const root = join(base, 'machine');
    const ctx = {
      ...context([
        { name: 'dir', hostPath: { path: '/var/lib/kube-proxy', type: 'DirectoryOrCreate' } },
        { name: 'up', hostPath: { path: '/../../outside', type: 'DirectoryOrCreate' } },
      ]),
      hostPathRoot: root,
    };
    const dirs = await materialiseVolumes(ctx);
    expect(dirs.get('dir')).toBe(join(root, 'var/lib/kube-proxy'));
    expect(existsSync(join(root, 'var/lib/kube-proxy'))).toBe(true);
    expect(dirs.get('up')).toBe(join(root, 'outside'));
    expect(await outsideState()).toEqual({ sentinel: 'keep me' });
  });

  it('are host paths for a kubelet that is not a machine', async () => {
    const dirs = await materialiseVolumes(context([{ name: 'dir', hostPath: { path: outside, type: 'Directory' } }]));
    expect(dirs.get('dir')).toBe(outside);
  });
});
