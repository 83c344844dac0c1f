import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { translateKubeApiServerArgs } from './kube-apiserver-flags.js';

function translate(args: string[]): { argv: string[]; ignored: string[] } {
  const ignored: string[] = [];
  const argv = translateKubeApiServerArgs(args, { stateDir: '/state', ignored: (f) => ignored.push(f) });
  return { argv, ignored };
}

// What Gardener's kube-apiserver Deployment of a shoot passes (libs/gardenlet-controllers component/kube-apiserver.ts),
// its mount paths already rewritten by the kubelet.
const GARDENER_ARGS = [
  '--enable-admission-plugins=Priority,NamespaceLifecycle,NodeRestriction',
  '--anonymous-auth=false',
  '--authorization-mode=Node,RBAC',
  '--client-ca-file=/pod/ca-client/bundle.crt',
  '--encryption-provider-config=/pod/etcd-encryption-secret/encryption-configuration.yaml',
  '--etcd-cafile=/pod/etcd/ca/bundle.crt',
  '--etcd-certfile=/pod/etcd/client/tls.crt',
  '--etcd-keyfile=/pod/etcd/client/tls.key',
  '--etcd-servers=https://etcd-main-client:2379',
  '--etcd-servers-overrides=/events#https://etcd-events-client:2379',
  '--secure-port=443',
  '--service-account-issuer=https://api.local.local.internal.local.gardener.cloud',
  '--service-account-key-file=/pod/service-account-key-bundle/bundle.key',
  '--service-account-signing-key-file=/pod/service-account-key/id_rsa',
  '--tls-cert-file=/pod/apiserver/tls.crt',
  '--tls-private-key-file=/pod/apiserver/tls.key',
  '--token-auth-file=/pod/token/static_tokens.csv',
  '--v=2',
];

describe('translateKubeApiServerArgs', () => {
  it("serves Gardener's shoot kube-apiserver flags: certificates, client CA, service accounts, etcd over TLS, encryption", () => {
    const { argv, ignored } = translate(GARDENER_ARGS);
    expect(argv).toEqual([
      '--data-dir',
      '/state',
      '--authorization-mode',
      'Node,RBAC',
      '--client-ca-file',
      '/pod/ca-client/bundle.crt',
      '--encryption-provider-config',
      '/pod/etcd-encryption-secret/encryption-configuration.yaml',
      '--etcd-cafile',
      '/pod/etcd/ca/bundle.crt',
      '--etcd-certfile',
      '/pod/etcd/client/tls.crt',
      '--etcd-keyfile',
      '/pod/etcd/client/tls.key',
      '--storage',
      'etcd',
      '--etcd-servers',
      'https://etcd-main-client:2379',
      '--port',
      '443',
      '--service-account-issuer',
      'https://api.local.local.internal.local.gardener.cloud',
      '--service-account-key-file',
      '/pod/service-account-key-bundle/bundle.key',
      '--service-account-signing-key-file',
      '/pod/service-account-key/id_rsa',
      '--tls-cert-file',
      '/pod/apiserver/tls.crt',
      '--tls-private-key-file',
      '/pod/apiserver/tls.key',
      '--token-auth-file',
      '/pod/token/static_tokens.csv',
      '--log-level',
      'info',
      '--bind-address',
      '0.0.0.0',
    ]);
    expect(ignored).toEqual([
      '--enable-admission-plugins',
      '--etcd-servers-overrides=/events#https://etcd-events-client:2379 (one etcd only: these resources are stored in --etcd-servers)',
    ]);
  });

  it('passes the kubelet CA and the client certificate for kubelets through with their files, and stores in files without an etcd', () => {
    const { argv, ignored } = translate([
      '--kubelet-certificate-authority=/srv/ca/ca.crt',
      '--kubelet-client-certificate',
      '/srv/c.crt',
      '--kubelet-client-key=/srv/c.key',
      '--kubelet-preferred-address-types=InternalIP',
    ]);
    expect(argv).toEqual([
      '--data-dir',
      '/state',
      '--kubelet-certificate-authority',
      '/srv/ca/ca.crt',
      '--kubelet-client-certificate',
      '/srv/c.crt',
      '--kubelet-client-key',
      '/srv/c.key',
      '--storage',
      'file',
      '--bind-address',
      '0.0.0.0',
    ]);
    expect(ignored).toEqual(['--kubelet-preferred-address-types']);
  });

  it('keeps the authorization modes the local API server has and reports the others; RBAC is always on', () => {
    expect(translate(['--authorization-mode=Node,Webhook,RBAC'])).toMatchObject({
      argv: expect.arrayContaining(['--authorization-mode', 'Node,RBAC']),
      ignored: ['--authorization-mode=Webhook (the local API server has Node and RBAC)'],
    });
    expect(translate(['--authorization-mode=RBAC']).argv).toEqual(
      expect.arrayContaining(['--authorization-mode', 'RBAC']),
    );
    expect(translate(['--authorization-mode=AlwaysAllow'])).toMatchObject({
      argv: expect.arrayContaining(['--authorization-mode', 'RBAC']),
      ignored: ['--authorization-mode=AlwaysAllow (the local API server has Node and RBAC)'],
    });
  });

  it('keeps an explicit --bind-address and --advertise-address', () => {
    const { argv } = translate(['--bind-address=127.0.0.5', '--advertise-address', '10.0.0.1']);
    expect(argv).toEqual([
      '--data-dir',
      '/state',
      '--bind-address',
      '127.0.0.5',
      '--advertise-address',
      '10.0.0.1',
      '--storage',
      'file',
    ]);
  });

  it('passes every --service-account-key-file and --service-account-issuer in order, but only the last of a flag given twice otherwise (as pflag)', () => {
    const { argv, ignored } = translate([
      '--service-account-key-file=/a.key',
      '--service-account-key-file=/b.key',
      '--service-account-issuer=https://one',
      '--service-account-issuer=https://two',
      '--tls-cert-file=/one.crt',
      '--tls-cert-file=/two.crt',
    ]);
    expect(argv.filter((a) => a.endsWith('.key'))).toEqual(['/a.key', '/b.key']);
    // kube: the first issuer issues tokens, every one is accepted.
    expect(argv.filter((a) => a.startsWith('https://'))).toEqual(['https://one', 'https://two']);
    expect(argv).toContain('/two.crt');
    expect(argv).not.toContain('/one.crt');
    expect(ignored).toEqual(['--tls-cert-file=/one.crt (given again later: the last one counts)']);
  });

  it('refuses a file flag without a value', () => {
    expect(() => translate(['--kubelet-certificate-authority='])).toThrow(
      '--kubelet-certificate-authority needs a value',
    );
    expect(() => translate(['--tls-cert-file'])).toThrow('--tls-cert-file needs a value');
  });

  it('never passes on a flag it does not know, and reports each one (property)', () => {
    const known = new Set(GARDENER_ARGS.map((a) => a.slice(2).split('=')[0]));
    const unknownName = fc
      .stringMatching(/^[a-z][a-z0-9-]{2,20}$/)
      .filter((n) => !known.has(n) && !['v', 'bind-address', 'advertise-address'].includes(n) && !n.includes('--'))
      .map((n) => `x-${n}`);
    fc.assert(
      fc.property(fc.uniqueArray(unknownName, { maxLength: 6 }), fc.string({ minLength: 1 }), (names, value) => {
        const clean = value.replace(/^-+/, 'v');
        const { argv, ignored } = translate([...GARDENER_ARGS, ...names.map((n) => `--${n}=${clean}`)]);
        for (const n of names) expect(argv).not.toContain(`--${n}`);
        expect(ignored.filter((f) => f.startsWith('--x-'))).toEqual(names.map((n) => `--${n}`));
        expect(argv.slice(0, 2)).toEqual(['--data-dir', '/state']);
      }),
    );
  });
});
