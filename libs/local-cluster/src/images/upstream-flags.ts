// Reading the command line of an upstream Kubernetes program (kube-controller-manager, kube-scheduler) as its pflag
// parser does, for the modules that translate it into the flags of the program's local stand-in.
import type { TranslationContext } from './image-map.js';

/** One flag of an upstream command line: `--name=value`, `--name value`, or a bare `--name`. */
export interface UpstreamFlag {
  name: string;
  value: string | undefined;
}

/**
 * The flags of `args`. A bare flag takes the next word as its value unless that word is a flag or the flag is one of
 * `booleans` (pflag's boolean flags never take the next word). A word that is no flag is reported and dropped.
 */
export function parseUpstreamFlags(
  args: readonly string[],
  context: Pick<TranslationContext, 'ignored'>,
  booleans: ReadonlySet<string> = new Set(),
): UpstreamFlag[] {
  const flags: UpstreamFlag[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    const match = /^--?([A-Za-z0-9][\w-]*)(?:=(.*))?$/s.exec(arg);
    if (!match) {
      context.ignored(arg);
      continue;
    }
    const [, name, inline] = match;
    if (inline !== undefined) flags.push({ name, value: inline });
    else if (!booleans.has(name) && i + 1 < args.length && !args[i + 1].startsWith('-'))
      flags.push({ name, value: args[++i] });
    else flags.push({ name, value: undefined });
  }
  return flags;
}

/** The value of a flag that needs one; throws naming the program and the flag otherwise. */
export function requiredValue(program: string, flag: UpstreamFlag): string {
  if (flag.value === undefined || flag.value === '') throw new Error(`${program} flag --${flag.name} needs a value`);
  return flag.value;
}

/** A pflag boolean: a bare flag is true; `=true`/`=false` (and Go's other spellings: 1, t, T, TRUE, ...) as written. */
export function booleanValue(program: string, flag: UpstreamFlag): boolean {
  if (flag.value === undefined) return true;
  if (['1', 't', 'T', 'true', 'TRUE', 'True'].includes(flag.value)) return true;
  if (['0', 'f', 'F', 'false', 'FALSE', 'False'].includes(flag.value)) return false;
  throw new Error(`${program} flag --${flag.name}: ${JSON.stringify(flag.value)} is not a boolean`);
}

/** klog's `-v` level as the stand-in's `--log-level`: 4 and above is debug. */
export function logLevelOf(program: string, flag: UpstreamFlag): string[] {
  const level = Number(requiredValue(program, flag));
  if (!Number.isInteger(level) || level < 0)
    throw new Error(`${program} flag --${flag.name}: ${JSON.stringify(flag.value)} is not a verbosity level`);
  return ['--log-level', level >= 4 ? 'debug' : 'info'];
}

/** How a stand-in says one upstream flag: its own arguments for it (none to drop it silently). */
export type FlagTranslation = (flag: UpstreamFlag, context: TranslationContext) => string[];

/**
 * Translates an upstream command line flag by flag with `translations`; a flag without one is dropped and reported
 * through `context.ignored`. `booleans` names the program's boolean flags (see {@link parseUpstreamFlags}).
 */
export function translateUpstreamArgs(
  args: readonly string[],
  context: TranslationContext,
  translations: Readonly<Record<string, FlagTranslation>>,
  booleans?: ReadonlySet<string>,
): string[] {
  const out: string[] = [];
  for (const flag of parseUpstreamFlags(args, context, booleans)) {
    const translate = Object.hasOwn(translations, flag.name) ? translations[flag.name] : undefined;
    if (translate) out.push(...translate(flag, context));
    else context.ignored(`--${flag.name}`);
  }
  return out;
}

/**
 * The flags kube-controller-manager and kube-scheduler share (client connection, secure serving, leader election,
 * klog verbosity), said the same way to their stand-ins.
 */
export function commonComponentTranslations(program: string): Record<string, FlagTranslation> {
  const passValue = (f: UpstreamFlag) => [`--${f.name}`, requiredValue(program, f)];
  return {
    kubeconfig: passValue,
    'secure-port': passValue,
    'bind-address': passValue,
    'tls-cert-file': passValue,
    'tls-private-key-file': passValue,
    'leader-elect': (f) => [booleanValue(program, f) ? '--leader-elect' : '--no-leader-elect'],
    v: (f) => logLevelOf(program, f),
  };
}
