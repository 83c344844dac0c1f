import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { certificateKubeconfig, clientCertificateOf, clusterOf, gardenCluster, parseKubeconfig } from './kubeconfig.js';

const CA = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';
const b64 = (s: string) => Buffer.from(s).toString('base64');

// A bootstrap kubeconfig as an operator writes it (Gardener's docs/deployment/deploy_gardenlet_manually.md).
const bootstrap = stringify({
  apiVersion: 'v1',
  kind: 'Config',
  'current-context': 'gardenlet-bootstrap@default',
  clusters: [
    { name: 'default', cluster: { server: 'https://garden.example.com', 'certificate-authority-data': b64(CA) } },
  ],
  contexts: [{ name: 'gardenlet-bootstrap@default', context: { cluster: 'default', user: 'gardenlet-bootstrap' } }],
  users: [{ name: 'gardenlet-bootstrap', user: { token: '07401b.f395accd246ae52d' } }],
});

describe('garden kubeconfigs', () => {
  it('takes the cluster of the bootstrap kubeconfig', () => {
    expect(clusterOf(bootstrap)).toEqual({ server: 'https://garden.example.com', caPem: CA });
  });

  it('gardenClusterAddress and gardenClusterCACert override the bootstrap cluster', () => {
    const other = '-----BEGIN CERTIFICATE-----\nOTHER\n-----END CERTIFICATE-----\n';
    expect(
      gardenCluster(bootstrap, { gardenClusterAddress: 'https://internal:443', gardenClusterCACert: b64(other) }),
    ).toEqual({
      server: 'https://internal:443',
      caPem: other,
    });
    expect(gardenCluster(bootstrap, {})).toEqual(clusterOf(bootstrap));
  });

  it('builds a certificate kubeconfig that reads back', () => {
    const text = certificateKubeconfig({ server: 'https://garden.example.com', caPem: CA }, 'CERT', 'KEY');
    const kc = parseKubeconfig(text);
    expect(kc.getCurrentCluster()?.server).toBe('https://garden.example.com');
    expect(kc.getCurrentUser()?.keyData).toBe(b64('KEY'));
    expect(clientCertificateOf(text)).toBe('CERT');
    expect(clusterOf(text)).toEqual({ server: 'https://garden.example.com', caPem: CA });
    expect(clientCertificateOf(bootstrap)).toBeUndefined();
  });

  it('rejects a kubeconfig without a current cluster', () => {
    expect(() => parseKubeconfig(stringify({ apiVersion: 'v1', kind: 'Config', clusters: [] }))).toThrow(
      /no current cluster/,
    );
  });
});
