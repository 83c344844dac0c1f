import { describe, expect, it } from 'vitest';
import { containerMounts, mountsJson, rewriteMountPaths } from './mounts.js';

const mounts = containerMounts(
  {
    name: 'c',
    volumeMounts: [
      { name: 'config', mountPath: '/etc/config/' },
      { name: 'certs', mountPath: '/etc/config/certs' },
      { name: 'data', mountPath: '/var/data', subPath: 'sub' },
    ],
  },
  new Map([
    ['config', '/host/config'],
    ['certs', '/host/certs'],
    ['data', '/host/data'],
  ]),
);

describe('mount paths', () => {
  it('maps each mount path to its volume directory (and subPath)', () => {
    expect(JSON.parse(mountsJson(mounts))).toEqual({
      '/etc/config': '/host/config',
      '/etc/config/certs': '/host/certs',
      '/var/data': '/host/data/sub',
    });
  });

  it('rewrites paths that start with a mount path, preferring the longest one', () => {
    expect(rewriteMountPaths('/etc/config/app.yaml', mounts)).toBe('/host/config/app.yaml');
    expect(rewriteMountPaths('--tls-cert-file=/etc/config/certs/tls.crt', mounts)).toBe(
      '--tls-cert-file=/host/certs/tls.crt',
    );
    expect(rewriteMountPaths('a:/var/data,b:/etc/config', mounts)).toBe('a:/host/data/sub,b:/host/config');
  });

  it('leaves paths that only share a prefix, or sit inside other words, alone', () => {
    expect(rewriteMountPaths('/etc/configuration', mounts)).toBe('/etc/configuration');
    expect(rewriteMountPaths('/opt/etc/config', mounts)).toBe('/opt/etc/config');
    expect(rewriteMountPaths('http://x/var/data', mounts)).toBe('http://x/var/data');
  });

  it('rejects a mount of a volume the Pod does not have', () => {
    expect(() => containerMounts({ name: 'c', volumeMounts: [{ name: 'nope', mountPath: '/x' }] }, new Map())).toThrow(
      'volumeMount "nope" names no volume',
    );
  });
});
