import { describe, expect, it } from 'vitest';
import { translateKubeApiServerArgs } from './kube-apiserver-flags.js';

describe('translateKubeApiServerArgs', () => {
  it('passes --kubelet-certificate-authority through with its file', () => {
    const ignored: string[] = [];
    const argv = translateKubeApiServerArgs(
      ['--kubelet-certificate-authority=/srv/ca/ca.crt', '--kubelet-client-certificate', '/srv/c.crt'],
      { stateDir: '/state', ignored: (f) => ignored.push(f) },
    );
    expect(argv).toEqual([
      '--data-dir',
      '/state',
      '--kubelet-certificate-authority',
      '/srv/ca/ca.crt',
      '--storage',
      'file',
    ]);
    expect(ignored).toEqual(['--kubelet-client-certificate']);
  });

  it('refuses --kubelet-certificate-authority without a value', () => {
    expect(() =>
      translateKubeApiServerArgs(['--kubelet-certificate-authority='], { stateDir: '/s', ignored: () => undefined }),
    ).toThrow('--kubelet-certificate-authority needs a value');
  });
});
