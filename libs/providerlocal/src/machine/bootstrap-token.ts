// The bootstrap token of a machine, as machine-controller-manager issues it: the `provision` OperatingSystemConfig
// (the machine's user data) carries the placeholder `<<BOOTSTRAP_TOKEN>>`; before the machine is created, a token
// Secret `bootstrap-token-<id>` is created in the shoot's kube-system (id from the machine's name, valid for the
// machine creation timeout) and the placeholder replaced with `<id>.<secret>`. The token is deleted once the machine
// is Running (its node-agent and kubelet have their own credentials then) and when the machine goes. Pure.
import { randomInt } from 'node:crypto';

/** The placeholder of the bootstrap token in a machine's user data. */
export const BootstrapTokenPlaceholder = '<<BOOTSTRAP_TOKEN>>';
/** How long a machine's bootstrap token is valid: machine-controller-manager's default machine creation timeout. */
export const MachineCreationTimeoutMs = 20 * 60_000;

/** The token id of a machine: the hex encoding of the last five bytes of its name, cut to six characters (MCM's rule). */
export function bootstrapTokenID(machineName: string): string {
  return Buffer.from(machineName, 'utf8').subarray(-5).toString('hex').slice(0, 6).padEnd(6, '0');
}

/** The name of the token Secret of a token id (kube's `bootstrap-token-<id>`). */
export function bootstrapTokenSecretName(id: string): string {
  return `bootstrap-token-${id}`;
}

const Charset = '0123456789abcdefghijklmnopqrstuvwxyz';

/** A new random token secret: 16 of `[0-9a-z]`. */
export function newTokenSecret(): string {
  return Array.from({ length: 16 }, () => Charset[randomInt(Charset.length)]).join('');
}

/** The token Secret in the shoot's kube-system: authentication and signing usages, expiring at `expiration`. */
export function bootstrapTokenSecret(machineName: string, secret: string, expiration: Date): Record<string, unknown> {
  const id = bootstrapTokenID(machineName);
  const data: Record<string, string> = {
    description: `A bootstrap token of machine ${machineName}, created by the machine controller.`,
    'token-id': id,
    'token-secret': secret,
    expiration: expiration.toISOString().replace(/\.\d{3}Z$/, 'Z'),
    'usage-bootstrap-authentication': 'true',
    'usage-bootstrap-signing': 'true',
  };
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: bootstrapTokenSecretName(id), namespace: 'kube-system' },
    type: 'bootstrap.kubernetes.io/token',
    data: Object.fromEntries(Object.entries(data).map(([k, v]) => [k, Buffer.from(v).toString('base64')])),
  };
}

/** The user data with every placeholder replaced by the token (`<id>.<secret>`). */
export function withBootstrapToken(userData: string, token: string): string {
  return userData.replaceAll(BootstrapTokenPlaceholder, token);
}

/**
 * Whether a token Secret (its base64 `data`) can no longer authenticate at `now`: its `expiration` passed. A machine
 * whose token expired before its Pod was created again (a restored machine) gets a new one.
 */
export function bootstrapTokenExpired(data: Record<string, string> | undefined, now: Date): boolean {
  const expiration = Buffer.from(data?.expiration ?? '', 'base64').toString('utf8');
  if (!expiration) return false;
  const at = Date.parse(expiration);
  return !Number.isNaN(at) && at <= now.getTime();
}
