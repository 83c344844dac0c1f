// kube-apiserver flags → flags of `gardener-local apiserver` (tools/gardener-local/src/cli.ts). What has a counterpart
// is translated; everything else is dropped and reported, so a Pod's log says which settings had no effect.
import type { TranslationContext } from './image-map.js';

type Flag = { name: string; value: string | undefined };

// Flags of kube-apiserver whose meaning the local API server has, with how to say them to it.
const TRANSLATIONS: Record<string, (value: string | undefined) => string[]> = {
  'secure-port': (v) => ['--port', required('secure-port', v)],
  'etcd-servers': (v) => ['--storage', 'etcd', '--etcd-servers', required('etcd-servers', v)],
  'token-auth-file': (v) => ['--token-auth-file', required('token-auth-file', v)],
  'audit-policy-file': (v) => ['--audit-policy-file', required('audit-policy-file', v)],
  'audit-log-path': (v) => ['--audit-log-path', required('audit-log-path', v)],
  'audit-webhook-config-file': (v) => ['--audit-webhook-config-file', required('audit-webhook-config-file', v)],
  'kubelet-certificate-authority': (v) => [
    '--kubelet-certificate-authority',
    required('kubelet-certificate-authority', v),
  ],
  'anonymous-auth': (v) => (v === undefined || v === 'true' ? ['--anonymous-auth'] : []),
  v: (v) => ['--log-level', Number(v) >= 4 ? 'debug' : 'info'],
};

export function translateKubeApiServerArgs(args: string[], context: TranslationContext): string[] {
  const out: string[] = [];
  for (const flag of parseFlags(args, context)) {
    const translate = TRANSLATIONS[flag.name];
    if (translate) out.push(...translate(flag.value));
    else context.ignored(`--${flag.name}`);
  }
  if (!out.includes('--storage')) out.push('--storage', 'file');
  return ['--data-dir', context.stateDir, ...out];
}

// Accepts `--name=value`, `--name value` and bare boolean `--name`; a non-flag word is reported and dropped.
function parseFlags(args: string[], context: TranslationContext): Flag[] {
  const flags: Flag[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    const match = /^--?([A-Za-z0-9][\w-]*)(?:=(.*))?$/s.exec(arg);
    if (!match) {
      context.ignored(arg);
      continue;
    }
    const [, name, inline] = match;
    if (inline !== undefined) flags.push({ name, value: inline });
    else if (i + 1 < args.length && !args[i + 1].startsWith('-')) flags.push({ name, value: args[++i] });
    else flags.push({ name, value: undefined });
  }
  return flags;
}

function required(flag: string, value: string | undefined): string {
  if (value === undefined || value === '') throw new Error(`kube-apiserver flag --${flag} needs a value`);
  return value;
}
