import { describe, expect, it } from 'vitest';
import { parseKubeletFlags } from './cli-options.js';

describe('parseKubeletFlags', () => {
  it('turns flags into kubelet options with absolute paths and milliseconds', () => {
    const options = parseKubeletFlags([
      '--kubeconfig',
      '/k/config',
      '--node-name',
      'n1',
      '--data-dir',
      '/d',
      '--port',
      '0',
      '--node-labels',
      'a=b,c=d=e',
      '--lease-renew-seconds',
      '2',
      '--restart-backoff-seconds',
      '0.5',
      '--services-file',
      '/c/services.json',
    ]);
    expect(options).toMatchObject({
      kubeconfig: '/k/config',
      nodeName: 'n1',
      dataDir: '/d',
      port: 0,
      nodeLabels: { a: 'b', c: 'd=e' },
      leaseRenewMs: 2000,
      backoff: { baseMs: 500 },
      servicesFile: '/c/services.json',
    });
  });

  it('turns --rotate-server-certificates (or --server-tls-bootstrap) into serverTLSBootstrap', () => {
    const base = ['--kubeconfig', 'k', '--node-name', 'n', '--data-dir', 'd'];
    expect(parseKubeletFlags([...base, '--rotate-server-certificates']).serverTLSBootstrap).toBe(true);
    expect(parseKubeletFlags([...base, '--server-tls-bootstrap']).serverTLSBootstrap).toBe(true);
    expect(parseKubeletFlags(base).serverTLSBootstrap).toBeUndefined();
  });

  it("takes kube's container log rotation flags", () => {
    const base = ['--kubeconfig', 'k', '--node-name', 'n', '--data-dir', 'd'];
    expect(
      parseKubeletFlags([...base, '--container-log-max-size', '5Mi', '--container-log-max-files', '3']),
    ).toMatchObject({ containerLogMaxSize: '5Mi', containerLogMaxFiles: 3 });
    expect(() => parseKubeletFlags([...base, '--container-log-max-files', '1'])).toThrow(
      '--container-log-max-files must be an integer of at least 2',
    );
  });

  it('names the flag that is missing or wrong', () => {
    expect(() => parseKubeletFlags(['--node-name', 'n', '--data-dir', 'd'])).toThrow('--kubeconfig is required');
    expect(() =>
      parseKubeletFlags(['--kubeconfig', 'k', '--node-name', 'n', '--data-dir', 'd', '--port', 'x']),
    ).toThrow('--port must be a port number');
    expect(() =>
      parseKubeletFlags(['--kubeconfig', 'k', '--node-name', 'n', '--data-dir', 'd', '--node-labels', 'oops']),
    ).toThrow('expected key=value');
    expect(() => parseKubeletFlags(['--bogus'])).toThrow(/bogus/);
  });
});
