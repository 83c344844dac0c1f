import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { utils } from 'ssh2';
import { authorizedKeysFromUserData, parseAuthorizedKeyLine, userOfAuthorizedKeysPath } from './authorized-keys.js';

const ed25519 = utils.generateKeyPairSync('ed25519').public; // "ssh-ed25519 AAAA... "
const rsa = utils.generateKeyPairSync('rsa', { bits: 1024 }).public;

/** Gardener's gardenlet user data for a Bastion (its `createUserData`, as libs/gardenlet-controllers renders it). */
const gardenletUserData = (key: string) =>
  [
    '#!/bin/bash -eu',
    '',
    'id gardener || useradd gardener -mU',
    'mkdir -p /home/gardener/.ssh',
    `echo "${key}" > /home/gardener/.ssh/authorized_keys`,
    'chown gardener:gardener /home/gardener/.ssh/authorized_keys',
    'echo "gardener ALL=(ALL) NOPASSWD:ALL" >/etc/sudoers.d/99-gardener-user',
    'systemctl start sshd || systemctl start ssh',
    '',
  ].join('\n');

/** An ssh-ed25519-like key line of type `type` around `body` (the blob names its type, as real keys do). */
function keyLine(type: string, body: Uint8Array, comment?: string): string {
  const name = Buffer.from(type, 'latin1');
  const length = Buffer.alloc(4);
  length.writeUInt32BE(name.length);
  const data = Buffer.concat([length, name, Buffer.from(body)]).toString('base64');
  return comment ? `${type} ${data} ${comment}` : `${type} ${data}`;
}

describe('parseAuthorizedKeyLine', () => {
  it('reads type, blob and comment of generated keys', () => {
    const key = parseAuthorizedKeyLine(`${ed25519.trim()} alice@laptop`, 'gardener');
    expect(key).toMatchObject({ user: 'gardener', type: 'ssh-ed25519', comment: 'alice@laptop' });
    expect(parseAuthorizedKeyLine(rsa)?.type).toBe('ssh-rsa');
  });

  it('refuses what is not a key: unknown types, bad base64, a blob naming another type', () => {
    expect(parseAuthorizedKeyLine('ssh-foo AAAAB3NzaC1yc2E=')).toBeUndefined();
    expect(parseAuthorizedKeyLine('ssh-ed25519 not*base64')).toBeUndefined();
    expect(parseAuthorizedKeyLine(keyLine('ssh-rsa', new Uint8Array([1, 2])).replace('ssh-rsa', 'ssh-ed25519'))).toBe(
      undefined,
    );
    expect(parseAuthorizedKeyLine('echo hello')).toBeUndefined();
    expect(parseAuthorizedKeyLine('')).toBeUndefined();
  });
});

describe('userOfAuthorizedKeysPath', () => {
  it('names the home directory owner', () => {
    expect(userOfAuthorizedKeysPath('/home/gardener/.ssh/authorized_keys')).toBe('gardener');
    expect(userOfAuthorizedKeysPath('/root/.ssh/authorized_keys')).toBe('root');
    expect(userOfAuthorizedKeysPath('/etc/ssh/authorized_keys')).toBeUndefined();
  });
});

describe('authorizedKeysFromUserData', () => {
  it("reads the key of gardenlet's Bastion user data for the user gardener", () => {
    const keys = authorizedKeysFromUserData(gardenletUserData(ed25519.trim()));
    expect(keys).toEqual([{ user: 'gardener', type: 'ssh-ed25519', data: ed25519.trim().split(' ')[1] }]);
  });

  it('reads printf, appends, single quotes and here-documents into authorized_keys files', () => {
    const script = [
      '#!/bin/sh',
      `printf '%s\\n' '${rsa.trim()}' >> /root/.ssh/authorized_keys`,
      'cat <<EOF > /home/ops/.ssh/authorized_keys',
      ed25519.trim(),
      'not a key',
      'EOF',
      `echo "${ed25519.trim()}" > /tmp/somewhere-else`,
    ].join('\n');
    expect(authorizedKeysFromUserData(script).map((k) => `${k.user}/${k.type}`)).toEqual([
      'root/ssh-rsa',
      'ops/ssh-ed25519',
    ]);
  });

  it("reads cloud-init's ssh_authorized_keys, top-level (any user) and per user", () => {
    const cloudConfig = [
      '#cloud-config',
      'ssh_authorized_keys:',
      `  - ${rsa.trim()}`,
      'users:',
      '  - name: gardener',
      '    ssh-authorized-keys:',
      `      - ${ed25519.trim()}`,
      '      - garbage',
    ].join('\n');
    expect(authorizedKeysFromUserData(cloudConfig).map((k) => `${k.user ?? '*'}/${k.type}`)).toEqual([
      '*/ssh-rsa',
      'gardener/ssh-ed25519',
    ]);
    expect(authorizedKeysFromUserData('#cloud-config\n: [')).toEqual([]);
  });

  it('finds every key written in any of the formats, and only those (property)', () => {
    const type = fc.constantFrom('ssh-ed25519', 'ssh-rsa', 'ecdsa-sha2-nistp256');
    const user = fc.stringMatching(/^[a-z][a-z0-9_-]{0,15}$/);
    const key = fc
      .tuple(type, fc.uint8Array({ minLength: 1, maxLength: 64 }), fc.option(fc.stringMatching(/^[a-z@.]{1,12}$/)))
      .map(([t, body, comment]) => keyLine(t, body, comment ?? undefined));
    const format = fc.constantFrom('echo', 'heredoc', 'cloud-config');
    fc.assert(
      fc.property(fc.array(fc.tuple(user, key), { minLength: 1, maxLength: 4 }), format, (entries, how) => {
        let text: string;
        if (how === 'cloud-config') {
          text = [
            '#cloud-config',
            'users:',
            ...entries.flatMap(([u, k]) => [`  - name: "${u}"`, '    ssh_authorized_keys:', `      - "${k}"`]),
          ].join('\n');
        } else if (how === 'echo') {
          text = [
            '#!/bin/bash',
            ...entries.map(([u, k]) => `echo "${k}" >> /home/${u}/.ssh/authorized_keys`),
            'echo done > /tmp/x',
          ].join('\n');
        } else {
          text = [
            '#!/bin/bash',
            ...entries.flatMap(([u, k]) => [`cat >> /home/${u}/.ssh/authorized_keys <<'EOF'`, k, 'EOF']),
          ].join('\n');
        }
        const found = authorizedKeysFromUserData(text);
        expect(found.map((k) => [k.user, [k.type, k.data, ...(k.comment ? [k.comment] : [])].join(' ')])).toEqual(
          entries,
        );
      }),
    );
  });
});
