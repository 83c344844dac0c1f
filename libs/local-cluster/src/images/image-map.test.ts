import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { builtinImageMap, ETCD_BINARY, jemallocEnv } from './builtin.js';
import { ImageMap, type TranslationContext } from './image-map.js';
import { parseImageReference } from './image-ref.js';
import { execArgv, hostPrograms, MissingBinaryError, programArgv, type ProgramLookup } from './program.js';

const context = (ignored: string[] = []): TranslationContext => ({
  stateDir: '/state',
  ignored: (f) => ignored.push(f),
});

describe('image references', () => {
  it('separates repository, tag and digest, keeping a registry port in the repository', () => {
    expect(parseImageReference('localhost:5001/app:v1')).toEqual({
      repository: 'localhost:5001/app',
      tag: 'v1',
      digest: undefined,
    });
    expect(parseImageReference('registry.k8s.io/etcd@sha256:abc')).toEqual({
      repository: 'registry.k8s.io/etcd',
      digest: 'sha256:abc',
    });
    expect(parseImageReference('busybox')).toEqual({ repository: 'busybox', digest: undefined });
  });
});

describe('ImageMap', () => {
  const map = ImageMap.parse(`
images:
  - prefix: example.com/
    command: [short]
  - prefix: example.com/team/
    command: [long, "\${suffix}"]
  - image: example.com/team/app
    command: [repo]
  - image: example.com/team/app:v2
    command: [exact]
    args: [--default]
    env: { A: b }
`);

  it('prefers an exact reference, then the repository, then the longest prefix', () => {
    expect(map.resolve('example.com/team/app:v2')?.command).toEqual(['exact']);
    expect(map.resolve('example.com/team/app:v1')?.command).toEqual(['repo']);
    expect(map.resolve('example.com/team/other:v1')?.command).toEqual(['long', 'other']);
    expect(map.resolve('example.com/x')?.command).toEqual(['short']);
    expect(map.resolve('elsewhere.io/x')).toBeUndefined();
  });

  it('lets an overriding map win on equal matches', () => {
    const merged = map.overriddenBy(ImageMap.parse('images: [{ image: "example.com/team/app:v2", command: [mine] }]'));
    expect(merged.resolve('example.com/team/app:v2')?.command).toEqual(['mine']);
    expect(merged.resolve('example.com/team/app:v1')?.command).toEqual(['repo']);
  });

  it('rejects malformed files with the entry at fault', () => {
    expect(() => ImageMap.parse('images: [{ command: [x] }]', 'map.yaml')).toThrow(
      'map.yaml: images[0]: needs exactly one of "image" or "prefix"',
    );
    expect(() => ImageMap.parse('images: [{ image: a, command: [] }]')).toThrow(
      'images[0].command: expected a non-empty list',
    );
    expect(() => ImageMap.parse('images: [{ image: a, command: [x], env: { A: 1 } }]')).toThrow(
      'images[0].env.A: expected a string',
    );
    expect(() => ImageMap.parse('pods: []', 'f')).toThrow('f: expected an object with a list "images"');
    expect(() => ImageMap.parse('images: [', 'f')).toThrow('f: not valid YAML');
  });
});

describe('programArgv (the Kubernetes entrypoint rule)', () => {
  const image = ImageMap.parse('images: [{ image: app, command: [prog, --fixed], args: [--default] }]').resolve(
    'app:1',
  )!;

  it('runs the entrypoint with the image args when the container sets neither', () => {
    expect(programArgv(image, {}, context())).toEqual(['prog', '--fixed', '--default']);
  });
  it('appends container args to the entrypoint in place of the image args', () => {
    expect(programArgv(image, { args: ['--mine'] }, context())).toEqual(['prog', '--fixed', '--mine']);
  });
  it('runs a command the image declares in place of entrypoint and args, found by name or path', () => {
    const tools = ImageMap.parse(
      'images: [{ image: app, command: [prog], binaries: { sh: /bin/sh, app-server: true } }]',
    ).resolve('app')!;
    expect(programArgv(tools, { command: ['sh', '-c'], args: ['echo hi'] }, context())).toEqual([
      '/bin/sh',
      '-c',
      'echo hi',
    ]);
    expect(programArgv(tools, { command: ['/usr/bin/sh', '-c', 'true'] }, context())).toEqual([
      '/bin/sh',
      '-c',
      'true',
    ]);
    expect(programArgv(tools, { command: ['/app-server', '--port=1'] }, context())).toEqual(['prog', '--port=1']);
  });
  it('refuses a command that names no program of the image, as a runtime without that binary does', () => {
    const err = (() => {
      try {
        programArgv(image, { command: ['rm', '-rf', '/'] }, context());
      } catch (e) {
        return e as MissingBinaryError;
      }
    })();
    expect(err).toBeInstanceOf(MissingBinaryError);
    expect(err).toMatchObject({ exitCode: 127, message: 'exec: "rm": executable file not found in $PATH' });
    // The image's own entrypoint program is no exception: only declared binaries run.
    expect(() => programArgv(image, { command: ['prog'] }, context())).toThrow(
      'exec: "prog": executable file not found in $PATH',
    );
    expect(() => programArgv(image, { command: ['/bin/sh'] }, context())).toThrow(
      'exec: "/bin/sh": stat /bin/sh: no such file or directory',
    );
    const tools = ImageMap.parse('images: [{ image: app, command: [prog], binaries: { sh: /bin/sh } }]').resolve(
      'app',
    )!;
    expect(() => programArgv(tools, { command: ['toString'] }, context())).toThrow(MissingBinaryError);
    expect(() => programArgv(tools, { command: ['bash'] }, context())).toThrow(MissingBinaryError);
  });
  it('runs exec commands only from the image as well', () => {
    const tools = ImageMap.parse(
      'images: [{ image: app, command: [prog, --fixed], binaries: { cat: /bin/cat, app: true } }]',
    ).resolve('app')!;
    expect(execArgv(tools, ['cat', '/etc/hostname'])).toEqual(['/bin/cat', '/etc/hostname']);
    expect(execArgv(tools, ['app', 'version'])).toEqual(['prog', '--fixed', 'version']);
    expect(() => execArgv(tools, ['ls'])).toThrow('exec: "ls": executable file not found in $PATH');
  });
  it('rejects binaries that are not names mapped to absolute programs', () => {
    expect(() => ImageMap.parse('images: [{ image: a, command: [p], binaries: { sh: bin/sh } }]')).toThrow(
      'images[0].binaries.sh: expected an absolute program path',
    );
    expect(() => ImageMap.parse('images: [{ image: a, command: [p], binaries: { /bin/sh: /bin/sh } }]')).toThrow(
      'is not a program name',
    );
    expect(() => ImageMap.parse('images: [{ image: a, command: [p], binaries: [a/b] }]')).toThrow(
      'images[0].binaries: expected a list of program names',
    );
  });
});

describe('images of host programs (command: container)', () => {
  const shell = ImageMap.parse('images: [{ image: shell, command: container, args: [sh] }]').resolve('shell:1')!;
  // A host with sh, sleep and echo in /host/bin.
  const host: ProgramLookup = (word) =>
    ['sh', 'sleep', 'echo'].includes(word.split('/').pop()!) ? `/host/bin/${word.split('/').pop()}` : undefined;
  const run = (container: { command?: string[]; args?: string[] }) => programArgv(shell, container, context(), host);

  it('runs the host program the command names, with the rest of the command and the args', () => {
    expect(run({ command: ['/bin/sh', '-c'], args: ['echo hi'] })).toEqual(['/host/bin/sh', '-c', 'echo hi']);
    expect(run({ command: ['sleep', '3600'] })).toEqual(['/host/bin/sleep', '3600']);
  });
  it('runs the args as the command when the container sets only args (`kubectl run --image=busybox -- sleep 1`)', () => {
    expect(run({ args: ['sleep', '1'] })).toEqual(['/host/bin/sleep', '1']);
  });
  it("runs the image's default command when the container sets neither", () => {
    expect(run({})).toEqual(['/host/bin/sh']);
  });
  it('fails a program the host does not have as a missing binary (exit code 127)', () => {
    expect(() => run({ command: ['wget', 'http://x'] })).toThrow('exec: "wget": executable file not found in $PATH');
    expect(() => run({ args: ['/usr/local/bin/app'] })).toThrow(
      'exec: "/usr/local/bin/app": stat /usr/local/bin/app: no such file or directory',
    );
    const none = ImageMap.parse('images: [{ image: bare, command: container }]').resolve('bare')!;
    expect(() => programArgv(none, {}, context(), host)).toThrow(MissingBinaryError);
  });
  it('runs exec commands (probes, kubectl exec) from the host the same way', () => {
    expect(execArgv(shell, ['echo', 'ok'], host)).toEqual(['/host/bin/echo', 'ok']);
    expect(() => execArgv(shell, ['ls'], host)).toThrow('exec: "ls": executable file not found in $PATH');
  });
  it('follows the Kubernetes rule: the command wins over the args, the args over the default command', () => {
    const words = fc.array(fc.constantFrom('sh', 'sleep', '/bin/echo', 'wget', '-c', 'echo hi', ''), { maxLength: 3 });
    fc.assert(
      fc.property(fc.option(words, { nil: undefined }), fc.option(words, { nil: undefined }), (command, args) => {
        const line = command?.length ? [...command, ...(args ?? [])] : args?.length ? args : ['sh'];
        const program = host(line[0]!);
        if (program) expect(run({ command, args })).toEqual([program, ...line.slice(1)]);
        else expect(() => run({ command, args })).toThrow(MissingBinaryError);
      }),
    );
  });
  it('rejects binaries on an entry whose programs are the host’s, and any other command string', () => {
    expect(() => ImageMap.parse('images: [{ image: a, command: container, binaries: [sh] }]')).toThrow(
      'images[0]: "binaries" does not go with command "container"',
    );
    expect(() => ImageMap.parse('images: [{ image: a, command: sh }]')).toThrow(
      'images[0].command: expected a non-empty list of strings or "container"',
    );
  });
});

describe('hostPrograms (the host programs of a container image)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'host-programs-'));
  const tool = join(dir, 'tool');
  writeFileSync(tool, '#!/bin/sh\n');
  chmodSync(tool, 0o755);
  writeFileSync(join(dir, 'data'), 'not a program');
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const find = hostPrograms(`relative/bin:${dir}:/nonexistent`);

  it('finds a name, or the base name of an image path, in the absolute PATH directories', () => {
    expect(find('tool')).toBe(tool);
    expect(find('/usr/local/bin/tool')).toBe(tool);
    expect(find('missing')).toBeUndefined();
  });
  it('takes only executable files', () => {
    expect(find('data')).toBeUndefined();
    expect(find(join(dir, 'data'))).toBeUndefined();
    expect(hostPrograms(dir)(dir)).toBeUndefined();
  });
  it('runs an existing absolute path (a mount path rewritten to its volume) as it is', () => {
    expect(hostPrograms('')(tool)).toBe(tool);
  });
  it('leaves a relative path to the working directory, and has nothing for an empty word', () => {
    expect(find('./run.sh')).toBe('./run.sh');
    expect(find('')).toBeUndefined();
    expect(find('bin/')).toBeUndefined();
  });
});

describe('built-in image map', () => {
  const builtin = builtinImageMap({ workspace: '/ws', node: '/bin/node' });

  it('runs gardener-ts images from the built app bundle', () => {
    const app = builtin.resolve('gardener-ts/gardenlet:v1.2.3')!;
    expect(programArgv(app, { args: ['--config', '/etc/cfg'] }, context())).toEqual([
      '/bin/node',
      '--max-semi-space-size=1',
      '--v8-pool-size=1',
      '/ws/dist/apps/gardenlet/main.js',
      '--config',
      '/etc/cfg',
    ]);
    // Two malloc arenas and the compile cache shared by every Node.js program.
    expect(app.env).toMatchObject({
      MALLOC_ARENA_MAX: '2',
      NODE_COMPILE_CACHE: expect.stringContaining('node-compile-cache'),
    });
  });

  it('loads jemalloc into Node.js programs where the machine has it, and nothing where it has not', () => {
    const dir = mkdtempSync(join(tmpdir(), 'jemalloc-'));
    try {
      const library = join(dir, 'libjemalloc.so.2');
      expect(jemallocEnv([library])).toEqual({});
      writeFileSync(library, '');
      expect(jemallocEnv([join(dir, 'missing.so'), library])).toEqual({
        LD_PRELOAD: library,
        MALLOC_CONF: expect.stringContaining('background_thread:true'),
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('runs kube-apiserver as the local API server with the flags it understands', () => {
    const image = builtin.resolve('registry.k8s.io/kube-apiserver:v1.31.1')!;
    const ignored: string[] = [];
    const argv = programArgv(
      image,
      {
        command: ['/usr/local/bin/kube-apiserver', '--secure-port=6443'],
        args: ['--etcd-servers', 'http://127.0.0.1:2379', '--enable-aggregator-routing=true', '--anonymous-auth=false'],
      },
      context(ignored),
    );
    expect(argv).toEqual([
      '/bin/node',
      '--max-semi-space-size=1',
      '--v8-pool-size=1',
      '/ws/dist/tools/gardener-local/images/kube-apiserver.js',
      '--data-dir',
      '/state',
      '--port',
      '6443',
      '--storage',
      'etcd',
      '--etcd-servers',
      'http://127.0.0.1:2379',
      '--bind-address',
      '0.0.0.0',
    ]);
    expect(ignored).toEqual(['--enable-aggregator-routing']);
    expect(
      builtin.resolve('europe-docker.pkg.dev/gardener-project/releases/hyperkube/kube-apiserver:v1.30.0')?.entry
        .binaries,
    ).toEqual(['kube-apiserver']);
  });

  it('passes kube-apiserver’s audit flags through with their paths', () => {
    const image = builtin.resolve('registry.k8s.io/kube-apiserver:v1.35.0')!;
    const ignored: string[] = [];
    const argv = programArgv(
      image,
      {
        command: ['kube-apiserver'],
        args: [
          '--audit-policy-file=/etc/audit/policy.yaml',
          '--audit-log-path',
          '/var/log/audit/audit.log',
          '--audit-webhook-config-file=/etc/audit/webhook.kubeconfig',
          '--audit-log-maxage=30',
        ],
      },
      context(ignored),
    );
    expect(argv).toEqual([
      '/bin/node',
      '--max-semi-space-size=1',
      '--v8-pool-size=1',
      '/ws/dist/tools/gardener-local/images/kube-apiserver.js',
      '--data-dir',
      '/state',
      '--audit-policy-file',
      '/etc/audit/policy.yaml',
      '--audit-log-path',
      '/var/log/audit/audit.log',
      '--audit-webhook-config-file',
      '/etc/audit/webhook.kubeconfig',
      '--storage',
      'file',
      '--bind-address',
      '0.0.0.0',
    ]);
    expect(ignored).toEqual(['--audit-log-maxage']);
    expect(programArgv(image, { command: ['kube-apiserver', '--audit-log-path=-'] }, context())).toContain('-');
  });

  it('runs etcd images as the etcd binary with their own flags', () => {
    const image = builtin.resolve('registry.k8s.io/etcd:3.5.15-0')!;
    expect(programArgv(image, { command: ['etcd', '--data-dir=/var/etcd'] }, context())).toEqual([
      ETCD_BINARY,
      '--data-dir=/var/etcd',
    ]);
  });

  it("runs provider-local's machine image, under our name and Gardener's, as the machine program", () => {
    for (const ref of ['gardener-ts/machine:v0.1.0', 'local-skaffold/gardener-extension-provider-local/node:v1.0.0']) {
      expect(programArgv(builtin.resolve(ref)!, {}, context())).toEqual([
        '/bin/node',
        '--max-semi-space-size=1',
        '--v8-pool-size=1',
        '/ws/dist/apps/node-agent/machine.js',
      ]);
    }
  });

  it("runs provider-local's bastion image as the bastion program bundled with provider-local", () => {
    expect(programArgv(builtin.resolve('gardener-ts/bastion:v0.1.0')!, { args: ['--port=22'] }, context())).toEqual([
      '/bin/node',
      '--max-semi-space-size=1',
      '--v8-pool-size=1',
      '/ws/dist/apps/provider-local/bastion.js',
      '--port=22',
    ]);
  });

  it('runs shell images under every registry spelling and tag as the host programs their containers name', () => {
    const host: ProgramLookup = (word) => `/host/${word.split('/').pop()}`;
    for (const ref of [
      'busybox',
      'busybox:1.36',
      'docker.io/library/busybox:latest',
      'docker.io/busybox',
      'library/busybox@sha256:abc',
      'registry.k8s.io/e2e-test-images/busybox:1.36.1-1',
      'europe-docker.pkg.dev/gardener-project/releases/3rd/busybox:1.29.3',
      'alpine:3.20',
      'docker.io/library/alpine',
      'europe-docker.pkg.dev/gardener-project/releases/3rd/alpine:3.19.1',
      'debian:bookworm',
      'docker.io/library/ubuntu:24.04',
    ]) {
      const image = builtin.resolve(ref);
      expect(image?.entry.command, ref).toBe('container');
      expect(programArgv(image!, { args: ['sleep', '3600'] }, context(), host), ref).toEqual(['/host/sleep', '3600']);
    }
    // Their default commands, as the images' cmd: sh for busybox and alpine, bash for debian and ubuntu.
    expect(programArgv(builtin.resolve('busybox')!, {}, context(), host)).toEqual(['/host/sh']);
    expect(programArgv(builtin.resolve('alpine:3')!, {}, context(), host)).toEqual(['/host/sh']);
    expect(programArgv(builtin.resolve('ubuntu')!, {}, context(), host)).toEqual(['/host/bash']);
    // Gardener's provider-local `local-ext-shoot-after-worker`, on this host's own programs.
    const gardenerAlpine = builtin.resolve('europe-docker.pkg.dev/gardener-project/releases/3rd/alpine:3.19.1')!;
    const argv = programArgv(gardenerAlpine, { command: ['/bin/sh', '-c', 'sleep 3600'] }, context());
    expect(argv.slice(1)).toEqual(['-c', 'sleep 3600']);
    expect(argv[0]).toMatch(/\/sh$/);
  });

  it('maps nothing else', () => {
    expect(builtin.resolve('docker.io/library/nginx:1.27')).toBeUndefined();
    expect(builtin.resolve('europe-docker.pkg.dev/gardener-project/releases/3rd/alpine/helm:3.16.4')).toBeUndefined();
    expect(builtin.resolve('quay.io/someone/busybox')).toBeUndefined();
  });
});
