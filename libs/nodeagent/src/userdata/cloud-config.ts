// The part of cloud-init a local machine needs to execute its user data: a `#cloud-config` with `write_files` (written
// below the machine's root directory with their permissions; `b64`/`base64` or plain content) and `runcmd` entries
// that drive systemd (`systemctl daemon-reload|enable|disable|start|stop|restart <unit>`), run by the machine's unit
// manager. Any other command is refused with its text: a local machine has no shell to run it in.
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { parse } from 'yaml';
import { nodePath } from '../units/paths.js';
import type { UnitManager } from '../units/runner.js';
import { splitCommandLine } from '../units/unit-file.js';

/** A parsed cloud-config (the fields local machines support). */
export interface CloudConfig {
  writeFiles: { path: string; permissions: number; content: Buffer }[];
  runcmd: { verb: 'daemon-reload' | 'enable' | 'disable' | 'start' | 'stop' | 'restart'; unit?: string }[];
}

const Verbs = new Set(['daemon-reload', 'enable', 'disable', 'start', 'stop', 'restart']);

/** Parses user data; throws for anything that is not a cloud-config local machines can run. */
export function parseCloudConfig(text: string): CloudConfig {
  if (!text.startsWith('#cloud-config')) throw new Error('user data is not a #cloud-config');
  const doc = (parse(text) ?? {}) as { write_files?: unknown[]; runcmd?: unknown[] };
  const writeFiles = (doc.write_files ?? []).map((entry, i) => {
    const f = entry as { path?: string; permissions?: string | number; encoding?: string; content?: string };
    if (typeof f.path !== 'string') throw new Error(`write_files[${i}].path is missing`);
    const permissions =
      typeof f.permissions === 'number' ? f.permissions : f.permissions ? parseInt(f.permissions, 8) : 0o644;
    const encoding = f.encoding ?? '';
    if (!['', 'b64', 'base64', 'text/plain'].includes(encoding)) {
      throw new Error(`write_files[${i}] (${f.path}): encoding ${JSON.stringify(encoding)} is not supported`);
    }
    const content = Buffer.from(f.content ?? '', encoding === 'b64' || encoding === 'base64' ? 'base64' : 'utf8');
    return { path: f.path, permissions, content };
  });
  const runcmd = (doc.runcmd ?? []).map((entry, i) => {
    const words = Array.isArray(entry) ? entry.map(String) : splitCommandLine(String(entry));
    const [cmd, verb, unit] = words;
    if (cmd !== 'systemctl' || !verb || !Verbs.has(verb) || (verb !== 'daemon-reload' && !unit) || words.length > 3) {
      throw new Error(
        `runcmd[${i}] ${JSON.stringify(words.join(' '))} is not supported on local machines (only systemctl <verb> <unit>)`,
      );
    }
    return { verb: verb as CloudConfig['runcmd'][number]['verb'], ...(unit ? { unit } : {}) };
  });
  return { writeFiles, runcmd };
}

/**
 * Executes a cloud-config on a machine: files first, then the commands in order. As cloud-init, a failing command does
 * not stop the others; the failures are thrown together at the end.
 */
export async function applyCloudConfig(
  config: CloudConfig,
  target: { rootDir: string; units: UnitManager },
): Promise<void> {
  for (const file of config.writeFiles) {
    const local = nodePath(target.rootDir, file.path);
    await mkdir(dirname(local), { recursive: true });
    await writeFile(local, file.content, { mode: file.permissions });
    await chmod(local, file.permissions);
  }
  const failures: string[] = [];
  for (const { verb, unit } of config.runcmd) {
    try {
      if (verb === 'daemon-reload') await target.units.daemonReload();
      else await target.units[verb](unit!);
    } catch (err) {
      failures.push(`systemctl ${verb} ${unit}: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  if (failures.length > 0) throw new Error(`user data: ${failures.join('; ')}`);
}
