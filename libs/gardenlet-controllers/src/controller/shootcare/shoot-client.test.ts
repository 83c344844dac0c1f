import { describe, expect, it } from 'vitest';
import type { Secret } from '@gardener-ts/controller-runtime';
import { newestManagedSecret, parseStaticTokens, shootAccessFrom, shootServer } from './shoot-client.js';

const secret = (name: string, config: string, created: string, data: Record<string, string>): Secret => ({
  apiVersion: 'v1',
  kind: 'Secret',
  metadata: {
    name,
    namespace: 'shoot--local--local',
    creationTimestamp: created,
    labels: { name: config, 'managed-by': 'secrets-manager', 'manager-identity': 'gardenlet' },
  },
  data: Object.fromEntries(Object.entries(data).map(([k, v]) => [k, Buffer.from(v).toString('base64')])),
});

describe('shoot access', () => {
  it('parses the static token file', () => {
    expect(parseStaticTokens('abc,health-check,health-check\n\n# comment\nxyz,admin,admin,"system:masters"\n')).toEqual(
      [
        { token: 'abc', user: 'health-check', uid: 'health-check' },
        { token: 'xyz', user: 'admin', uid: 'admin' },
      ],
    );
  });

  it('takes the newest secret of the gardenlet secrets manager for a config', () => {
    const old = secret('ca-bundle-1', 'ca-bundle', '2026-01-01T00:00:00Z', { 'bundle.crt': 'OLD' });
    const current = secret('ca-bundle-2', 'ca-bundle', '2026-01-02T00:00:00Z', { 'bundle.crt': 'NEW' });
    const foreign = {
      ...secret('ca-bundle-3', 'ca-bundle', '2026-01-03T00:00:00Z', {}),
      metadata: {
        ...current.metadata,
        name: 'ca-bundle-3',
        labels: { name: 'ca-bundle', 'managed-by': 'secrets-manager', 'manager-identity': 'other' },
      },
    };
    expect(newestManagedSecret([old, current, foreign], 'ca-bundle')?.metadata?.name).toBe('ca-bundle-2');
  });

  it('finds the address, CA bundle, health-check token and client CA', () => {
    const secrets = [
      secret('ca-bundle-a', 'ca-bundle', '2026-01-01T00:00:00Z', { 'bundle.crt': 'CA-PEM' }),
      secret('kube-apiserver-static-token-b', 'kube-apiserver-static-token', '2026-01-01T00:00:00Z', {
        'static_tokens.csv': 'secret-token,health-check,health-check\n',
      }),
      secret('ca-client-c', 'ca-client', '2026-01-01T00:00:00Z', { 'ca.crt': 'CLIENT-CA', 'ca.key': 'CLIENT-KEY' }),
    ];
    const server = shootServer([{ name: 'unmanaged', url: 'https://127.0.0.1:31443' }]);
    expect(shootAccessFrom(server, secrets)).toEqual({
      access: {
        server: 'https://127.0.0.1:31443',
        caBundle: 'CA-PEM',
        healthCheckToken: 'secret-token',
        clientCA: { certificatePem: 'CLIENT-CA', privateKeyPem: 'CLIENT-KEY' },
      },
    });
    expect(shootAccessFrom(undefined, secrets)).toEqual({ missing: 'the shoot has no advertised address yet' });
    expect(shootAccessFrom(server, secrets.slice(1))).toEqual({
      missing: `the shoot's cluster CA secret "ca" does not exist yet`,
    });
  });

  it('prefers the external address', () => {
    expect(
      shootServer([
        { name: 'unmanaged', url: 'https://u' },
        { name: 'external', url: 'https://e' },
        { name: 'internal', url: 'https://i' },
      ]),
    ).toBe('https://e');
    expect(shootServer(undefined)).toBeUndefined();
  });
});
