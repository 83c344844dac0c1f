// Bastion validation: one valid and one invalid case per Gardener rule, with Gardener's field paths and messages.
import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Bastion } from '../operations/v1alpha1/bastion.js';
import { isAuthorizedKey, validateBastion, validateBastionStatusUpdate } from './bastion.js';
import { validateObject } from './registry.js';

/** An OpenSSH authorized_keys line for a fresh ed25519 key: "ssh-ed25519 <base64(string type, string key)> comment". */
function sshPublicKey(): string {
  const jwk = generateKeyPairSync('ed25519').publicKey.export({ format: 'jwk' });
  const str = (b: Buffer) => Buffer.concat([Buffer.from([0, 0, 0, b.length]), b]);
  const blob = Buffer.concat([str(Buffer.from('ssh-ed25519')), str(Buffer.from(jwk.x!, 'base64url'))]);
  return `ssh-ed25519 ${blob.toString('base64')} user@host`;
}
const key = sshPublicKey();

function bastion(mutate: (b: Bastion) => void = () => {}): Bastion {
  const b: Bastion = {
    apiVersion: 'operations.gardener.cloud/v1alpha1',
    kind: 'Bastion',
    metadata: { name: 'cli-abc', namespace: 'garden-dev', annotations: { 'gardener.cloud/created-by': 'jane' } },
    spec: {
      shootRef: { name: 'local' },
      sshPublicKey: key,
      ingress: [{ ipBlock: { cidr: '10.0.0.0/8' } }, { ipBlock: { cidr: '2001:db8::/64' } }],
    },
  };
  mutate(b);
  return b;
}
const messages = (b: Bastion, old?: Bastion) => validateBastion(b, old).map((e) => e.message);

describe('validateBastion', () => {
  it('accepts a valid Bastion, also through validateObject and as an unchanged update', () => {
    expect(messages(bastion())).toEqual([]);
    expect(validateObject(bastion() as never)).toEqual([]);
    expect(messages(bastion(), bastion())).toEqual([]);
  });

  const cases: [string, (b: Bastion) => void, string[]][] = [
    [
      'name must be a DNS label',
      (b) => (b.metadata!.name = 'a.b'),
      [
        "metadata.name: Invalid value: \"a.b\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
      ],
    ],
    [
      'shoot reference must not be empty',
      (b) => (b.spec.shootRef.name = ''),
      ['spec.shootRef.name: Invalid value: "": shoot reference must not be empty'],
    ],
    [
      'sshPublicKey must not be empty',
      (b) => (b.spec.sshPublicKey = ''),
      ['spec.sshPublicKey: Invalid value: "": sshPublicKey must not be empty'],
    ],
    [
      'sshPublicKey must parse',
      (b) => (b.spec.sshPublicKey = 'ssh-ed25519 bm90IGEga2V5'),
      ['spec.sshPublicKey: Invalid value: "ssh-ed25519 bm90IGEga2V5": invalid sshPublicKey'],
    ],
    [
      'ingress must not be empty',
      (b) => (b.spec.ingress = []),
      ['spec.ingress: Invalid value: []: ingress must not be empty'],
    ],
    [
      'CIDR must not be empty',
      (b) => (b.spec.ingress[0]!.ipBlock.cidr = ''),
      ['spec.ingress: Invalid value: "": CIDR must not be empty'],
    ],
    [
      'CIDR must parse',
      (b) => (b.spec.ingress[1]!.ipBlock.cidr = '10.0.0.300/8'),
      ['spec.ingress: Invalid value: "10.0.0.300/8": invalid CIDR'],
    ],
  ];
  for (const [rule, mutate, expected] of cases) {
    it(`rejects: ${rule}`, () => expect(messages(bastion(mutate))).toEqual(expected));
  }

  const updates: [string, (b: Bastion) => void, string[]][] = [
    [
      'shootRef.name is immutable',
      (b) => (b.spec.shootRef.name = 'other'),
      ['spec.shootRef.name: Invalid value: "other": field is immutable'],
    ],
    [
      'sshPublicKey is immutable',
      (b) => (b.spec.sshPublicKey = sshPublicKey()),
      [
        expect.stringMatching(
          /^spec\.sshPublicKey: Invalid value: "ssh-ed25519 .*": field is immutable$/,
        ) as unknown as string,
      ],
    ],
    [
      'the created-by annotation is immutable',
      (b) => (b.metadata!.annotations!['gardener.cloud/created-by'] = 'mallory'),
      ['metadata.annotations: Invalid value: "mallory": field is immutable'],
    ],
  ];
  for (const [rule, mutate, expected] of updates) {
    it(`rejects on update: ${rule}; allows other changes`, () => {
      expect(messages(bastion(mutate), bastion())).toEqual(expected);
      expect(
        messages(
          bastion((b) => b.spec.ingress.push({ ipBlock: { cidr: '192.168.0.0/16' } })),
          bastion(),
        ),
      ).toEqual([]);
    });
  }

  it('rejects a last heartbeat in the future on status updates', () => {
    const now = new Date('2026-01-01T00:00:00Z');
    expect(
      validateBastionStatusUpdate(
        bastion((b) => (b.status = { lastHeartbeatTimestamp: '2025-12-31T23:59:00Z' })),
        now,
      ),
    ).toEqual([]);
    expect(
      validateBastionStatusUpdate(
        bastion((b) => (b.status = { lastHeartbeatTimestamp: '2026-01-01T00:01:00Z' })),
        now,
      ).map((e) => e.message),
    ).toEqual([
      'status.lastHeartbeatTimestamp: Invalid value: "2026-01-01T00:01:00Z": last heartbeat must not be in the future',
    ]);
  });

  it('parses authorized_keys lines as golang.org/x/crypto/ssh does for the common cases', () => {
    expect(isAuthorizedKey(key)).toBe(true);
    expect(isAuthorizedKey(`no-pty ${key}`)).toBe(true);
    expect(isAuthorizedKey(key.replace('ssh-ed25519 ', 'ssh-rsa '))).toBe(false); // blob names another type
    expect(isAuthorizedKey('just text')).toBe(false);
  });
});
