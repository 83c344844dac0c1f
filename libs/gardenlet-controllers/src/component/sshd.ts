// SSH access to a pool's nodes in its `reconcile` OperatingSystemConfig (Gardener's `original` components
// sshd-ensurer and gardener-user): with SSH access (workers, `spec.provider.workersSettings.sshAccess.enabled` not
// false) sshd runs, enabled, and the user `gardener` authorizes the shoot's SSH public keys — the current `ssh-keypair`
// and, while a rotation keeps it, the old one; without SSH access neither is rendered (node-agent stops and removes what
// an earlier OSC brought, as sshd-ensurer's disable script stops sshd).
//
// Local differences, on purpose: a local machine runs no scripts and has no OS image bringing `sshd.service`, so the
// OSC carries the sshd unit itself (ExecStart `/usr/sbin/sshd -D`, a program the machine knows) instead of
// sshd-ensurer's unit and script, and the keys file at Gardener's path `/var/lib/gardener-user-authorized-keys` is
// accompanied by what gardener-user's script would make of it — `/home/gardener/.ssh/authorized_keys` — instead of the
// script and its units (`gardener-user.service`, `gardener-user.path`). No sudoers file: a local machine has no users.
import type { Shoot, extensionsv1alpha1 } from '@gardener-ts/api';
import { shootEnablesSSHAccess } from '../shoot/rotation/status.js';

type OSCUnit = NonNullable<extensionsv1alpha1.OperatingSystemConfigSpec['units']>[number];
type OSCFile = NonNullable<extensionsv1alpha1.OperatingSystemConfigSpec['files']>[number];

/** sshd's unit and program on a node. */
export const SSHDUnitName = 'sshd.service';
export const SSHDBinary = '/usr/sbin/sshd';
/** The data key of the SSH keypair Secret's OpenSSH public key (Gardener's `DataKeySSHAuthorizedKeys`). */
export const SSHKeypairPublicKeyDataKey = 'id_rsa.pub';
/** The user SSH logins use (Gardener's gardener-user component). */
export const GardenerUser = 'gardener';
/** Where the authorized keys go: Gardener's file and the user's authorized_keys its script copies it to. */
export const SSHAuthorizedKeysPaths = {
  gardenerUser: '/var/lib/gardener-user-authorized-keys',
  user: `/home/${GardenerUser}/.ssh/authorized_keys`,
} as const;

/** The sshd unit: the OpenSSH server in the foreground, restarted when it ends. */
export function sshdUnitContent(): string {
  return `[Unit]
Description=OpenSSH server daemon
After=network.target

[Service]
ExecStart=${SSHDBinary} -D
Restart=always
RestartSec=5

[Install]
WantedBy=multi-user.target`;
}

/** The authorized keys file: one key a line, in the given order (Gardener joins them with newlines). */
export function authorizedKeysContent(publicKeys: readonly string[]): string {
  return publicKeys
    .map((k) => k.trim())
    .filter(Boolean)
    .join('\n');
}

/**
 * The units and files of SSH access for a pool's `reconcile` OSC: with SSH access the sshd unit (enabled, started) and
 * the authorized keys of `publicKeys` (the current key first, then the old one during a rotation); nothing without.
 */
export function sshAccessComponents(
  shoot: Shoot,
  publicKeys: readonly string[],
): { units: OSCUnit[]; files: OSCFile[] } {
  if (!shootEnablesSSHAccess(shoot)) return { units: [], files: [] };
  const data = Buffer.from(authorizedKeysContent(publicKeys)).toString('base64');
  const file = (path: string): OSCFile => ({
    path,
    permissions: 0o644,
    content: { inline: { encoding: 'b64', data } },
  });
  return {
    units: [{ name: SSHDUnitName, command: 'start', enable: true, content: sshdUnitContent(), filePaths: [] }],
    files: [file(SSHAuthorizedKeysPaths.gardenerUser), file(SSHAuthorizedKeysPaths.user)],
  };
}
