// The admin kubeconfig as kubectl reads it: the shoot's advertised address, its cluster CA, the client certificate.
import { KubeConfig } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { adminKubeconfigYAML, serverOf } from './kubeconfig.js';

describe('the admin kubeconfig', () => {
  it('is a kubeconfig kubectl loads, with context <project namespace>--<shoot>', () => {
    const kc = new KubeConfig();
    kc.loadFromString(
      adminKubeconfigYAML({
        shootName: 'local',
        projectNamespace: 'garden-local',
        server: 'https://127.0.0.1:31443',
        clusterCAPem: 'CA',
        clientCertPem: 'CERT',
        clientKeyPem: 'KEY',
      }),
    );
    expect(kc.getCurrentContext()).toBe('garden-local--local');
    expect(kc.getCurrentCluster()).toMatchObject({
      server: 'https://127.0.0.1:31443',
      caData: Buffer.from('CA').toString('base64'),
    });
    expect(kc.getCurrentUser()).toMatchObject({
      certData: Buffer.from('CERT').toString('base64'),
      keyData: Buffer.from('KEY').toString('base64'),
    });
  });

  it('uses the external address, else the load balancer address', () => {
    const shoot = (addresses: { name: string; url: string }[]) => ({ status: { advertisedAddresses: addresses } });
    expect(
      serverOf(
        shoot([
          { name: 'unmanaged', url: 'https://127.0.0.1:1' },
          { name: 'external', url: 'https://api.x' },
        ]),
      ),
    ).toBe('https://api.x');
    expect(serverOf(shoot([{ name: 'unmanaged', url: 'https://127.0.0.1:1' }]))).toBe('https://127.0.0.1:1');
    expect(serverOf({})).toBeUndefined();
  });
});
