// The extension Bastion of a core Bastion: Gardener's user data script with the Bastion's key, base64 on the wire;
// the shoot's control plane namespace; the ingress CIDRs; the reconcile request.
import { describe, expect, it } from 'vitest';
import { exampleShoot } from '../../component/testdata/fixtures.js';
import type { CoreBastion } from './kinds.js';
import { extensionKey, extensionSpec, renderExtensionBastion, renderUserData } from './objects.js';

const KEY = 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIKp user@host';

const bastion = (mutate?: (b: CoreBastion) => void): CoreBastion => {
  const b: CoreBastion = {
    apiVersion: 'operations.gardener.cloud/v1alpha1',
    kind: 'Bastion',
    metadata: { name: 'cli-abc', namespace: 'garden-local', generation: 1 },
    spec: {
      shootRef: { name: 'local' },
      seedName: 'local',
      providerType: 'local',
      sshPublicKey: KEY,
      ingress: [{ ipBlock: { cidr: '203.0.113.0/24' } }, { ipBlock: { cidr: '::/0', except: ['2001:db8::/32'] } }],
    },
  };
  mutate?.(b);
  return b;
};

describe('renderUserData', () => {
  it("is Gardener's script: the gardener user with the key, password-less sudo, sshd started", () => {
    expect(renderUserData(KEY)).toBe(
      [
        '#!/bin/bash -eu',
        '',
        'id gardener || useradd gardener -mU',
        'mkdir -p /home/gardener/.ssh',
        `echo "${KEY}" > /home/gardener/.ssh/authorized_keys`,
        'chown gardener:gardener /home/gardener/.ssh/authorized_keys',
        'echo "gardener ALL=(ALL) NOPASSWD:ALL" >/etc/sudoers.d/99-gardener-user',
        'systemctl start sshd || systemctl start ssh',
        '',
      ].join('\n'),
    );
  });
});

describe('the extension Bastion', () => {
  const shoot = exampleShoot((s) => {
    s.status = { ...s.status, technicalID: 'shoot--local--local-technical' } as typeof s.status;
  });

  it("is named like the Bastion, in the shoot's control plane namespace", () => {
    expect(extensionKey(bastion(), shoot)).toEqual({ namespace: 'shoot--local--local-technical', name: 'cli-abc' });
  });

  it('has the provider type, the user data base64-encoded and the ingress CIDRs', () => {
    const spec = extensionSpec(bastion());
    expect(spec.type).toBe('local');
    expect(Buffer.from(spec.userData, 'base64').toString()).toBe(renderUserData(KEY));
    expect(spec.ingress).toEqual([
      { ipBlock: { cidr: '203.0.113.0/24' } },
      { ipBlock: { cidr: '::/0', except: ['2001:db8::/32'] } },
    ]);
  });

  it('names the Bastion without spec.providerType', () => {
    expect(() => extensionSpec(bastion((b) => delete b.spec.providerType))).toThrow(
      'Bastion garden-local/cli-abc has no spec.providerType',
    );
  });

  it('carries the reconcile request with the time of the request', () => {
    const now = new Date('2026-11-29T12:00:00.123Z');
    const rendered = renderExtensionBastion(bastion(), shoot, now);
    expect(rendered).toMatchObject({
      apiVersion: 'extensions.gardener.cloud/v1alpha1',
      kind: 'Bastion',
      metadata: {
        name: 'cli-abc',
        namespace: 'shoot--local--local-technical',
        annotations: { 'gardener.cloud/operation': 'reconcile', 'gardener.cloud/timestamp': now.toISOString() },
      },
    });
    expect(rendered.spec).toEqual(extensionSpec(bastion()));
  });
});
