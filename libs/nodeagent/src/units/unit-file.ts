// systemd unit files as the local unit runner reads them: INI sections with repeatable keys, drop-ins applied in name
// order over the unit (a later assignment wins; an empty `ExecStart=` clears the list, as systemd does), and the
// `[Service]` settings the runner honours: ExecStart, Environment, EnvironmentFile, Restart, RestartSec, Type.

/**
 * A parsed unit file: section name → key → values in order of assignment. An empty assignment (`ExecStart=`) is kept
 * as `''`: it resets the list, which matters once drop-ins are appended (see `effectiveValues`).
 */
export type UnitFile = Map<string, Map<string, string[]>>;

/** Parses a unit file. Comments (`#`, `;`) and blank lines are skipped; a trailing `\` continues a line. */
export function parseUnitFile(text: string): UnitFile {
  const unit: UnitFile = new Map();
  let section: Map<string, string[]> | undefined;
  const lines = text.replace(/\\\r?\n/g, ' ').split(/\r?\n/);
  for (const raw of lines) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#') || line.startsWith(';')) continue;
    const header = /^\[(.+)\]$/.exec(line);
    if (header) {
      const name = header[1]!.trim();
      section = unit.get(name) ?? new Map();
      unit.set(name, section);
      continue;
    }
    const eq = line.indexOf('=');
    if (eq < 0 || !section) continue;
    const key = line.slice(0, eq).trim();
    const value = line.slice(eq + 1).trim();
    section.set(key, [...(section.get(key) ?? []), value]);
  }
  return unit;
}

/** The unit with its drop-ins applied in the order given (callers sort them by file name, as systemd does). */
export function applyDropIns(unit: UnitFile, dropIns: UnitFile[]): UnitFile {
  const merged: UnitFile = new Map([...unit].map(([name, keys]) => [name, new Map(keys)]));
  for (const dropIn of dropIns) {
    for (const [name, keys] of dropIn) {
      const section = merged.get(name) ?? new Map<string, string[]>();
      merged.set(name, section);
      for (const [key, values] of keys) section.set(key, [...(section.get(key) ?? []), ...values]);
    }
  }
  return merged;
}

/** The values of a key after the last reset (empty assignment): what systemd uses. */
export function effectiveValues(values: string[] | undefined): string[] {
  if (!values) return [];
  const reset = values.lastIndexOf('');
  return values.slice(reset + 1);
}

/** Splits a command line into words, honouring double and single quotes. */
export function splitCommandLine(line: string): string[] {
  const words: string[] = [];
  let current = '';
  let quote: '"' | "'" | undefined;
  let inWord = false;
  for (const ch of line) {
    if (quote) {
      if (ch === quote) quote = undefined;
      else current += ch;
    } else if (ch === '"' || ch === "'") {
      quote = ch;
      inWord = true;
    } else if (/\s/.test(ch)) {
      if (inWord) words.push(current);
      current = '';
      inWord = false;
    } else {
      current += ch;
      inWord = true;
    }
  }
  if (inWord) words.push(current);
  return words;
}

/** What the runner needs of a service unit. */
export interface ServiceSettings {
  /** The command of the last `ExecStart=` (prefixes `-`, `@`, `+`, `!` removed), as words. */
  execStart?: string[];
  /** `Environment=` assignments. */
  environment: Record<string, string>;
  /** `EnvironmentFile=` paths; `optional` for the `-` prefix. */
  environmentFiles: { path: string; optional: boolean }[];
  /** `Restart=`: `no` (default), `always`, `on-failure`, ... */
  restart: string;
  /** `RestartSec=` in milliseconds (systemd's default 100 ms). */
  restartMs: number;
  /** `Type=`: `simple` (default), `oneshot`, ... */
  type: string;
}

/** Parses a systemd time span (`5`, `5s`, `100ms`, `1min`, `2m 30s`) into milliseconds. */
export function parseTimeSpan(value: string): number {
  const units: Record<string, number> = { ms: 1, s: 1000, sec: 1000, m: 60_000, min: 60_000, h: 3_600_000 };
  let total = 0;
  for (const part of value.trim().split(/\s+/)) {
    const m = /^(\d+(?:\.\d+)?)([a-z]*)$/.exec(part);
    if (!m) throw new Error(`invalid time span ${JSON.stringify(value)}`);
    const factor = units[m[2] || 's'];
    if (factor === undefined) throw new Error(`invalid time unit in ${JSON.stringify(value)}`);
    total += Number(m[1]) * factor;
  }
  return total;
}

/** Reads the `[Service]` settings of a (merged) unit file. */
export function serviceSettings(unit: UnitFile): ServiceSettings {
  const service = unit.get('Service') ?? new Map<string, string[]>();
  const all = (key: string) => effectiveValues(service.get(key));
  const last = (key: string) => all(key).at(-1);
  const environment: Record<string, string> = {};
  for (const assignment of all('Environment')) {
    for (const word of splitCommandLine(assignment)) {
      const eq = word.indexOf('=');
      if (eq > 0) environment[word.slice(0, eq)] = word.slice(eq + 1);
    }
  }
  const exec = last('ExecStart');
  const execWords = exec === undefined ? undefined : splitCommandLine(exec.replace(/^[-@+!]+/, ''));
  return {
    ...(execWords && execWords.length > 0 ? { execStart: execWords } : {}),
    environment,
    environmentFiles: all('EnvironmentFile').map((p) =>
      p.startsWith('-') ? { path: p.slice(1), optional: true } : { path: p, optional: false },
    ),
    restart: last('Restart') ?? 'no',
    restartMs: parseTimeSpan(last('RestartSec') ?? '100ms'),
    type: last('Type') ?? 'simple',
  };
}

/** Parses an environment file: `KEY=value` lines, `#` comments, optional quotes around the value. */
export function parseEnvironmentFile(text: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const m = /^(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)=(.*)$/.exec(line);
    if (!m) continue;
    env[m[1]!] = m[2]!.replace(/^"(.*)"$/, '$1').replace(/^'(.*)'$/, '$1');
  }
  return env;
}
