import { describe, expect, it } from 'vitest';
import { containerMounts, containerPath, mountsJson, rewriteMountPaths } from './mounts.js';

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

describe('containerPath', () => {
  const env = {
    GARDENER_LOCAL_MOUNTS: JSON.stringify({ '/var/lib/kube-proxy': '/m/0/var/lib/kube-proxy', '/c': '/p/c' }),
  };
  it('is the host path of a path below a mount of the container, the path itself elsewhere', () => {
    expect(containerPath('/var/lib/kube-proxy/services.json', env)).toBe('/m/0/var/lib/kube-proxy/services.json');
    expect(containerPath('/var/lib/kube-proxy', env)).toBe('/m/0/var/lib/kube-proxy');
    expect(containerPath('/var/lib/kube-proxy-config/config.yaml', env)).toBe('/var/lib/kube-proxy-config/config.yaml');
    expect(containerPath('/cx/y', env)).toBe('/cx/y');
    expect(containerPath('/c/y', {})).toBe('/c/y');
  });
});
