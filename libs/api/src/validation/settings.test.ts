import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { generateKeyPairSync, X509Certificate } from 'node:crypto';
import type { ClusterOpenIDConnectPreset, OpenIDConnectPreset } from '../settings/v1alpha1/openidconnectpreset.js';
import { defaultClusterOpenIDConnectPreset, defaultOpenIDConnectPreset } from '../defaulting/settings.js';
import type { KubeObject } from '../serialization/manifests.js';
import { defaultObject, validateObject } from './registry.js';
import { isPEMCertificate, validateClusterOpenIDConnectPreset, validateOpenIDConnectPreset } from './settings.js';

const preset = (change: (p: OpenIDConnectPreset) => void = () => undefined): OpenIDConnectPreset => {
  const p: OpenIDConnectPreset = {
    apiVersion: 'settings.gardener.cloud/v1alpha1',
    kind: 'OpenIDConnectPreset',
    metadata: { name: 'dex', namespace: 'garden-local' },
    spec: { server: { clientID: 'kubernetes', issuerURL: 'https://dex.example.com' }, weight: 90 },
  };
  change(p);
  return p;
};
const clusterPreset = (change: (p: ClusterOpenIDConnectPreset) => void = () => undefined) => {
  const p: ClusterOpenIDConnectPreset = {
    apiVersion: 'settings.gardener.cloud/v1alpha1',
    kind: 'ClusterOpenIDConnectPreset',
    metadata: { name: 'dex' },
    spec: { server: { clientID: 'kubernetes', issuerURL: 'https://dex.example.com' }, weight: 10 },
  };
  change(p);
  return p;
};
const messages = (errors: { message: string }[]) => errors.map((e) => e.message);

/** A fixed self-signed certificate (node cannot create one): a PEM the validation must accept. */
function certificatePEM(): string {
  const pem = `-----BEGIN CERTIFICATE-----
MIIBhTCCASugAwIBAgIQIRi6zePL6mKjOipn+dNuaTAKBggqhkjOPQQDAjASMRAw
DgYDVQQKEwdBY21lIENvMB4XDTE3MTAyMDE5NDMwNloXDTE4MTAyMDE5NDMwNlow
EjEQMA4GA1UEChMHQWNtZSBDbzBZMBMGByqGSM49AgEGCCqGSM49AwEHA0IABD0d
7VNhbWvZLWPuj/RtHFjvtJBEwOkhbN/BnnE8rnZR8+sbwnc/KhCk3FhnpHZnQz7B
5aETbbIgmuvewdjvSBSjYzBhMA4GA1UdDwEB/wQEAwICpDATBgNVHSUEDDAKBggr
BgEFBQcDATAPBgNVHRMBAf8EBTADAQH/MCkGA1UdEQQiMCCCDmxvY2FsaG9zdDo1
NDUzgg4xMjcuMC4wLjE6NTQ1MzAKBggqhkjOPQQDAgNIADBFAiEA2zpJEPQyz6/l
Wf86aX6PepsntZv2GYlA5UpabfT2EZICICpJ5h/iI+i341gBmLiAFQOyTDT+/wQc
6MF9+Yw1Yy0t
-----END CERTIFICATE-----
`;
  new X509Certificate(pem); // throws if the fixture were no certificate
  return pem;
}

describe('OpenIDConnectPreset defaulting', () => {
  it('selects every Shoot, signs with RS256 and names users by sub', () => {
    expect(defaultOpenIDConnectPreset(preset()).spec).toEqual({
      server: {
        clientID: 'kubernetes',
        issuerURL: 'https://dex.example.com',
        signingAlgs: ['RS256'],
        usernameClaim: 'sub',
      },
      shootSelector: {},
      weight: 90,
    });
    const cluster = defaultClusterOpenIDConnectPreset(clusterPreset()).spec;
    expect(cluster.projectSelector).toEqual({});
    expect(cluster.shootSelector).toEqual({});
    expect(cluster.server.usernameClaim).toBe('sub');
  });

  it('keeps what is set, and is applied by defaultObject', () => {
    const set = preset((p) => {
      p.spec.server.signingAlgs = ['ES256'];
      p.spec.server.usernameClaim = 'email';
      p.spec.shootSelector = { matchLabels: { oidc: 'enabled' } };
    });
    expect(defaultOpenIDConnectPreset(set).spec).toEqual(set.spec);
    expect((defaultObject(preset() as KubeObject) as OpenIDConnectPreset).spec.shootSelector).toEqual({});
  });
});

describe('OpenIDConnectPreset validation', () => {
  it('accepts a minimal preset, and one with a PEM CA bundle', () => {
    expect(validateOpenIDConnectPreset(preset())).toEqual([]);
    expect(validateObject(preset() as KubeObject)).toEqual([]);
    const pem = certificatePEM();
    expect(isPEMCertificate(pem)).toBe(true);
    expect(validateOpenIDConnectPreset(preset((p) => (p.spec.server.caBundle = pem)))).toEqual([]);
  });

  it("refuses a weight outside 1-100, with Gardener's message", () => {
    fc.assert(
      fc.property(fc.integer({ min: -1000, max: 1000 }), (weight) => {
        const errors = validateOpenIDConnectPreset(preset((p) => (p.spec.weight = weight)));
        expect(messages(errors)).toEqual(
          weight >= 1 && weight <= 100 ? [] : [`spec.weight: Invalid value: ${weight}: must be in the range 1-100`],
        );
      }),
    );
  });

  it('refuses an issuer URL that is empty, has no host or is not https', () => {
    expect(messages(validateOpenIDConnectPreset(preset((p) => (p.spec.server.issuerURL = ''))))).toEqual([
      'spec.server.issuerURL: Required value: must not be empty',
    ]);
    expect(messages(validateOpenIDConnectPreset(preset((p) => (p.spec.server.issuerURL = 'dex.example.com'))))).toEqual(
      [
        'spec.server.issuerURL: Invalid value: "dex.example.com": must be a valid URL',
        'spec.server.issuerURL: Invalid value: "dex.example.com": must have https scheme',
      ],
    );
    expect(
      messages(validateOpenIDConnectPreset(preset((p) => (p.spec.server.issuerURL = 'http://dex.example.com')))),
    ).toEqual(['spec.server.issuerURL: Invalid value: "http://dex.example.com": must have https scheme']);
  });

  it('refuses an empty client ID, a CA bundle that is no PEM certificate and empty optional strings', () => {
    const errors = validateOpenIDConnectPreset(
      preset((p) => {
        p.spec.server.clientID = '';
        p.spec.server.caBundle = 'not a certificate';
        p.spec.server.groupsClaim = '';
        p.spec.server.usernamePrefix = '';
        p.spec.client = { secret: '' };
      }),
    );
    expect(messages(errors)).toEqual([
      'spec.server.clientID: Required value: must not be empty',
      'spec.server.caBundle: Invalid value: "not a certificate": must be a valid PEM-encoded certificate',
      'spec.server.groupsClaim: Invalid value: "": must not be empty',
      'spec.server.usernamePrefix: Invalid value: "": must not be empty',
      'spec.client.secret: Invalid value: "": must not be empty',
    ]);
  });

  it('refuses unknown and duplicate signing algorithms', () => {
    expect(
      messages(validateOpenIDConnectPreset(preset((p) => (p.spec.server.signingAlgs = ['RS256', 'none', 'RS256'])))),
    ).toEqual([
      'spec.server.signingAlgs[1]: Invalid value: "none": must be one of: [ES256 ES384 ES512 PS256 PS384 PS512 RS256 RS384 RS512]',
      'spec.server.signingAlgs[2]: Duplicate value: "RS256"',
    ]);
  });

  it('refuses client extra config keys the auth-provider owns, and empty values', () => {
    expect(
      messages(
        validateOpenIDConnectPreset(preset((p) => (p.spec.client = { extraConfig: { 'client-id': '', scope: 'x' } }))),
      ),
    ).toEqual([
      'spec.client.extraConfig[client-id]: Invalid value: "": must not be empty',
      'spec.client.extraConfig[client-id]: Forbidden: cannot be any of [client-id client-secret id-token idp-certificate-authority idp-certificate-authority-data idp-issuer-url refresh-token]',
    ]);
  });

  it('refuses an invalid shoot selector and a name that is no DNS label', () => {
    const errors = validateOpenIDConnectPreset(
      preset((p) => {
        p.metadata!.name = 'dex.preset';
        p.spec.shootSelector = { matchLabels: { 'in valid': 'x' } };
      }),
    );
    expect(errors.map((e) => e.field)).toEqual(['metadata.name', 'spec.shootSelector.matchLabels']);
  });

  it('checks the project selector of a ClusterOpenIDConnectPreset, which has no namespace', () => {
    expect(validateClusterOpenIDConnectPreset(clusterPreset())).toEqual([]);
    const errors = validateClusterOpenIDConnectPreset(
      clusterPreset((p) => {
        p.metadata!.namespace = 'garden';
        p.spec.projectSelector = { matchExpressions: [{ key: 'stage', operator: 'In' }] };
      }),
    );
    expect(errors.map((e) => e.field)).toEqual([
      'metadata.namespace',
      'spec.projectSelector.matchExpressions[0].values',
    ]);
  });

  it('keeps the name on update', () => {
    const old = preset();
    expect(
      messages(
        validateOpenIDConnectPreset(
          preset((p) => (p.metadata!.name = 'other')),
          old,
        ),
      ),
    ).toEqual(['metadata.name: Invalid value: "other": field is immutable']);
  });
});

describe('isPEMCertificate', () => {
  it('refuses a PEM block that holds no certificate', () => {
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const keyPEM = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    expect(isPEMCertificate(keyPEM)).toBe(false);
    expect(isPEMCertificate('')).toBe(false);
  });
});
