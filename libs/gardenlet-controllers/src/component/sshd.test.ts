// SSH access in the reconcile OSC: sshd and the `gardener` user's authorized keys with the shoot's current (and, during
// a rotation, old) public key, nothing without SSH access; the Worker and Infrastructure carry the current key.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Shoot, extensionsv1alpha1 } from '@gardener-ts/api';
import { renderInfrastructure, renderOperatingSystemConfigs, renderWorker } from './extensions.js';
import {
  SSHAuthorizedKeysPaths,
  SSHDUnitName,
  authorizedKeysContent,
  sshAccessComponents,
  sshdUnitContent,
} from './sshd.js';
import { exampleShoot, exampleValues } from './testdata/fixtures.js';

type OSC = extensionsv1alpha1.OperatingSystemConfig;
const current = 'ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQCurrent';
const old = 'ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQOld';
const node = { now: '2026-11-30T02:00:00Z', apiServerURL: 'https://127.0.0.1:31443', caBundle: 'CA' };
const fileText = (osc: OSC, path: string) => {
  const inline = osc.spec.files?.find((f) => f.path === path)?.content.inline;
  return inline && Buffer.from(inline.data, 'base64').toString('utf8');
};
const withoutSSH = (shoot: Shoot) => {
  shoot.spec.provider.workersSettings = { sshAccess: { enabled: false } };
};

describe('SSH access in the reconcile OSC', () => {
  it('runs sshd, enabled, and authorizes the current and the old key for the gardener user', () => {
    const [provision, original] = renderOperatingSystemConfigs(exampleValues(), {
      ...node,
      sshPublicKeys: [`${current}\n`, old],
    }) as [OSC, OSC];
    const sshd = original.spec.units?.find((u) => u.name === SSHDUnitName);
    expect(sshd).toMatchObject({ command: 'start', enable: true });
    expect(sshd?.content?.split('\n')).toContain('ExecStart=/usr/sbin/sshd -D');
    expect(sshd?.content?.split('\n')).toContain('WantedBy=multi-user.target');
    for (const path of [SSHAuthorizedKeysPaths.gardenerUser, '/home/gardener/.ssh/authorized_keys']) {
      expect(fileText(original, path)).toBe(`${current}\n${old}`);
      expect(original.spec.files?.find((f) => f.path === path)?.permissions).toBe(0o644);
    }
    // The machine's user data does not carry SSH access: node-agent applies it with the reconcile OSC.
    expect(provision.spec.units?.some((u) => u.name === SSHDUnitName)).toBe(false);
    expect(provision.spec.files?.some((f) => f.path.includes('authorized'))).toBe(false);
  });

  it('renders neither sshd nor keys when the shoot disables SSH access', () => {
    const values = exampleValues(withoutSSH);
    const [, original] = renderOperatingSystemConfigs(values, { ...node, sshPublicKeys: [current] }) as [OSC, OSC];
    expect(original.spec.units?.map((u) => u.name)).toEqual(['kubelet.service', 'gardener-node-agent.service']);
    expect(original.spec.files?.some((f) => f.path.includes('authorized'))).toBe(false);
    expect(sshAccessComponents(exampleShoot(withoutSSH), [current])).toEqual({ units: [], files: [] });
  });

  it('keeps every key, one a line, in order, whatever whitespace surrounds them (property)', () => {
    const key = fc.stringMatching(/^ssh-(rsa|ed25519) [A-Za-z0-9+/]{8,40}$/);
    fc.assert(
      fc.property(fc.array(fc.tuple(key, fc.constantFrom('', '\n', ' \n', '\r\n')), { maxLength: 4 }), (keys) => {
        const text = authorizedKeysContent(keys.map(([k, ws]) => `${ws}${k}${ws}`));
        expect(text === '' ? [] : text.split('\n')).toEqual(keys.map(([k]) => k));
      }),
    );
  });

  it('the unit names a program a machine knows and starts on boot', () => {
    expect(sshdUnitContent()).toMatch(
      /^\[Unit\][\s\S]*\[Service\][\s\S]*ExecStart=\/usr\/sbin\/sshd -D[\s\S]*\[Install\]/,
    );
  });
});

describe('the SSH public key of the Worker and the Infrastructure', () => {
  it('is set when given and left out when not', () => {
    const values = exampleValues();
    expect(renderInfrastructure(values, { now: node.now, sshPublicKey: current }).spec.sshPublicKey).toBe(current);
    expect(renderInfrastructure(values, { now: node.now }).spec).not.toHaveProperty('sshPublicKey');
    const userDataSecretNames = { local: 'user-data-local' };
    expect(renderWorker(values, { now: node.now, userDataSecretNames, sshPublicKey: current }).spec.sshPublicKey).toBe(
      current,
    );
    expect(renderWorker(values, { now: node.now, userDataSecretNames }).spec).not.toHaveProperty('sshPublicKey');
  });
});
