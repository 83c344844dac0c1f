import { execFile, spawnSync } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { podAddress, podNetworkEnv } from './pod-network.js';

function boundAddress(listenCall: string, podIP: string): string {
  const program = `const net = require('node:net'); const s = net.createServer(); ${listenCall.replace('CB', "() => { console.log(s.address().address); s.close(); }")};`;
  const result = spawnSync(process.execPath, ['-e', program], { env: podNetworkEnv(podIP, { PATH: process.env.PATH ?? '' }), encoding: 'utf8' });
  if (result.status !== 0) throw new Error(result.stderr);
  return result.stdout.trim();
}

describe('pod network preload', () => {
  it('binds wildcard listens to the pod address, in every listen() form', () => {
    expect(boundAddress('s.listen(0, CB)', '127.9.0.1')).toBe('127.9.0.1');
    expect(boundAddress("s.listen(0, '0.0.0.0', CB)", '127.9.0.2')).toBe('127.9.0.2');
    expect(boundAddress("s.listen({ port: 0, host: '::' }, CB)", '127.9.0.3')).toBe('127.9.0.3');
    expect(boundAddress('s.listen({ port: 0 }, CB)', '127.9.0.4')).toBe('127.9.0.4');
  });

  it('leaves explicit addresses alone', () => {
    expect(boundAddress("s.listen(0, '127.0.0.1', CB)", '127.9.0.5')).toBe('127.0.0.1');
  });

  it('lets two pods listen on the same port at once', async () => {
    const program = `const s = require('node:net').createServer(); s.listen(45678, () => { console.log(s.address().address); setTimeout(() => s.close(), 1000); });`;
    const run = (ip: string) => promisify(execFile)(process.execPath, ['-e', program], { env: podNetworkEnv(ip, {}) });
    const [a, b] = await Promise.all([run('127.9.1.1'), run('127.9.1.2')]);
    expect([a.stdout.trim(), b.stdout.trim()]).toEqual(['127.9.1.1', '127.9.1.2']);
  });
});

describe('pod addresses', () => {
  it('counts through the /16 skipping .0 and .255', () => {
    expect(podAddress('127.42.0.0/16', 1)).toBe('127.42.0.1');
    expect(podAddress('127.42.0.0/16', 254)).toBe('127.42.0.254');
    expect(podAddress('127.42.0.0/16', 255)).toBe('127.42.1.1');
    expect(() => podAddress('10.0.0.0/16', 1)).toThrow(/loopback/);
  });
});
