// validateBastion (Gardener's pkg/apis/operations/validation): the Shoot, a parseable SSH public key, ingress CIDRs;
// the Shoot, the key and the gardener.cloud/created-by annotation are immutable.
import type { Bastion } from '../operations/v1alpha1/bastion.js';
import { type FieldError, FieldPath, immutable, invalid } from './field.js';
import { parseCIDR } from './net.js';
import { validateDNS1123Label, validateObjectMeta, validateObjectMetaUpdate } from './names.js';

const spec = FieldPath.root('spec');
const createdBy = 'gardener.cloud/created-by';

/** Key types golang.org/x/crypto/ssh accepts in an authorized_keys line. */
const keyTypes = new Set([
  'ssh-rsa',
  'ssh-dss',
  'ssh-ed25519',
  'ecdsa-sha2-nistp256',
  'ecdsa-sha2-nistp384',
  'ecdsa-sha2-nistp521',
  'sk-ssh-ed25519@openssh.com',
  'sk-ecdsa-sha2-nistp256@openssh.com',
  'ssh-rsa-cert-v01@openssh.com',
  'ssh-dss-cert-v01@openssh.com',
  'ssh-ed25519-cert-v01@openssh.com',
  'ecdsa-sha2-nistp256-cert-v01@openssh.com',
  'ecdsa-sha2-nistp384-cert-v01@openssh.com',
  'ecdsa-sha2-nistp521-cert-v01@openssh.com',
  'sk-ssh-ed25519-cert-v01@openssh.com',
  'sk-ecdsa-sha2-nistp256-cert-v01@openssh.com',
]);

/** Whether some line of `text` is an authorized_keys entry (`[options] type base64 [comment]`) whose blob names its type. */
export function isAuthorizedKey(text: string): boolean {
  return text.split('\n').some((line) => {
    const fields = line.trim().split(/\s+/);
    if (fields.length < 2 || line.trim().startsWith('#')) return false;
    // An optional options field comes before the key type.
    const at = keyTypes.has(fields[0]!) ? 0 : keyTypes.has(fields[1]!) ? 1 : -1;
    if (at < 0 || fields.length < at + 2) return false;
    const type = fields[at]!;
    const data = fields[at + 1]!;
    if (!/^[A-Za-z0-9+/]+={0,2}$/.test(data)) return false;
    const blob = Buffer.from(data, 'base64');
    if (blob.length < 4) return false;
    const length = blob.readUInt32BE(0);
    return length + 4 <= blob.length && blob.subarray(4, 4 + length).toString('latin1') === type;
  });
}

export function validateBastion(bastion: Bastion, old?: Bastion): FieldError[] {
  const errors: FieldError[] = [];
  if (old) {
    errors.push(...validateObjectMetaUpdate(bastion.metadata, old.metadata));
    const now = bastion.metadata?.annotations?.[createdBy] ?? '';
    const before = old.metadata?.annotations?.[createdBy] ?? '';
    if (now !== before) errors.push(immutable(FieldPath.root('metadata', 'annotations'), now));
    if ((bastion.spec?.shootRef?.name ?? '') !== (old.spec?.shootRef?.name ?? ''))
      errors.push(immutable(spec.child('shootRef', 'name'), bastion.spec?.shootRef?.name ?? ''));
    if ((bastion.spec?.sshPublicKey ?? '') !== (old.spec?.sshPublicKey ?? ''))
      errors.push(immutable(spec.child('sshPublicKey'), bastion.spec?.sshPublicKey ?? ''));
  }
  errors.push(...validateObjectMeta(bastion.metadata, { namespaced: true, name: validateDNS1123Label }));
  const s = bastion.spec ?? ({} as Partial<Bastion['spec']>);
  if (!s.shootRef?.name)
    errors.push(invalid(spec.child('shootRef', 'name'), s.shootRef?.name ?? '', 'shoot reference must not be empty'));
  if (!s.sshPublicKey)
    errors.push(invalid(spec.child('sshPublicKey'), s.sshPublicKey ?? '', 'sshPublicKey must not be empty'));
  else if (!isAuthorizedKey(s.sshPublicKey))
    errors.push(invalid(spec.child('sshPublicKey'), s.sshPublicKey, 'invalid sshPublicKey'));
  if (!s.ingress?.length) errors.push(invalid(spec.child('ingress'), s.ingress ?? null, 'ingress must not be empty'));
  for (const block of s.ingress ?? []) {
    const cidr = block.ipBlock?.cidr ?? '';
    if (!cidr) errors.push(invalid(spec.child('ingress'), cidr, 'CIDR must not be empty'));
    else if (!parseCIDR(cidr)) errors.push(invalid(spec.child('ingress'), cidr, 'invalid CIDR'));
  }
  return errors;
}

/** Gardener's ValidateBastionStatusUpdate: the last heartbeat must not lie in the future. */
export function validateBastionStatusUpdate(bastion: Bastion, now: Date = new Date()): FieldError[] {
  const heartbeat = bastion.status?.lastHeartbeatTimestamp;
  if (heartbeat && Date.parse(heartbeat) > now.getTime()) {
    return [
      invalid(
        FieldPath.root('status', 'lastHeartbeatTimestamp'),
        heartbeat,
        'last heartbeat must not be in the future',
      ),
    ];
  }
  return [];
}
