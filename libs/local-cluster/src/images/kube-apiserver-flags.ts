// kube-apiserver flags → flags of `gardener-local apiserver` (tools/gardener-local/src/apiserver-command.ts). What has
// a counterpart is translated — serving certificate, client CA, service account keys and issuer, etcd with TLS, bind
// and advertise address, encryption at rest, the authorization modes the local API server has — everything else is dropped and reported,
// so a Pod's log says which settings had no effect.
import type { TranslationContext } from './image-map.js';
import { parseUpstreamFlags, type UpstreamFlag } from './upstream-flags.js';

// Flags whose file or value the local API server takes as kube-apiserver does: passed on under the same name.
const SAME_NAME = [
  'bind-address',
  'advertise-address',
  'tls-cert-file',
  'tls-private-key-file',
  'client-ca-file',
  'etcd-cafile',
  'etcd-certfile',
  'etcd-keyfile',
  'encryption-provider-config',
  'service-account-key-file',
  'service-account-signing-key-file',
  'service-account-issuer',
  'api-audiences',
  'token-auth-file',
  'audit-policy-file',
  'audit-log-path',
  'audit-webhook-config-file',
  'kubelet-certificate-authority',
  'kubelet-client-certificate',
  'kubelet-client-key',
];

// The authorization modes of the local API server (RBAC is always on).
const AUTHORIZATION_MODES = new Set(['Node', 'RBAC']);

// Flags of kube-apiserver whose meaning the local API server has, with how to say them to it. `ignored` reports a
// part of a flag that has no effect.
const TRANSLATIONS: Record<string, (value: string | undefined, ignored: (what: string) => void) => string[]> = {
  ...Object.fromEntries(SAME_NAME.map((name) => [name, (v: string | undefined) => [`--${name}`, required(name, v)]])),
  'secure-port': (v) => ['--port', required('secure-port', v)],
  'etcd-servers': (v) => ['--storage', 'etcd', '--etcd-servers', required('etcd-servers', v)],
  // The storage has one etcd: a resource's objects cannot live in another one.
  'etcd-servers-overrides': (v, ignored) => {
    ignored(`--etcd-servers-overrides=${v ?? ''} (one etcd only: these resources are stored in --etcd-servers)`);
    return [];
  },
  'authorization-mode': (v, ignored) => {
    const modes = required('authorization-mode', v).split(',');
    const known = modes.filter((m) => AUTHORIZATION_MODES.has(m));
    const unknown = modes.filter((m) => !AUTHORIZATION_MODES.has(m));
    if (unknown.length) ignored(`--authorization-mode=${unknown.join(',')} (the local API server has Node and RBAC)`);
    if (!known.includes('RBAC')) known.push('RBAC');
    return ['--authorization-mode', known.join(',')];
  },
  'anonymous-auth': (v) => (v === undefined || v === 'true' ? ['--anonymous-auth'] : []),
  v: (v) => ['--log-level', Number(v) >= 4 ? 'debug' : 'info'],
};

// Flags kube-apiserver accepts several times (a list); any other repeated flag: the last one counts, as with pflag.
const REPEATABLE = new Set(['service-account-key-file', 'service-account-issuer']);

/**
 * The argv of `gardener-local apiserver` for kube-apiserver's `args`: its state in the container's state dir, file
 * storage unless `--etcd-servers` names an etcd, listening on all addresses (kube's default `--bind-address`; a Pod's
 * network preload turns that into the Pod's own address) unless the args say otherwise.
 */
export function translateKubeApiServerArgs(args: string[], context: TranslationContext): string[] {
  const out: string[] = [];
  const ignored = (what: string) => context.ignored(what);
  const flags = parseUpstreamFlags(args, context, new Set(['anonymous-auth']));
  const last = new Map<string, UpstreamFlag>(flags.map((f) => [f.name, f]));
  for (const flag of flags) {
    const translate = TRANSLATIONS[flag.name];
    if (!translate) {
      context.ignored(`--${flag.name}`);
      continue;
    }
    if (!REPEATABLE.has(flag.name) && last.get(flag.name) !== flag) {
      context.ignored(`--${flag.name}=${flag.value ?? ''} (given again later: the last one counts)`);
      continue;
    }
    out.push(...translate(flag.value, ignored));
  }
  if (!out.includes('--storage')) out.push('--storage', 'file');
  if (!out.includes('--bind-address')) out.push('--bind-address', '0.0.0.0');
  return ['--data-dir', context.stateDir, ...out];
}

function required(flag: string, value: string | undefined): string {
  if (value === undefined || value === '') throw new Error(`kube-apiserver flag --${flag} needs a value`);
  return value;
}
