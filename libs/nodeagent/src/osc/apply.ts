// Carries out an OSC plan on a machine: files below the machine's root directory, unit files and drop-ins in
// `/etc/systemd/system`, then the unit manager — stop what goes, daemon-reload, enable/disable, start and restart — in
// Gardener node-agent's order. Unit command failures do not stop the others; they are reported together at the end.
import { chmod, mkdir, rm, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { nodePath } from '../units/paths.js';
import { UnitDirectory, type UnitManager } from '../units/runner.js';
import type { OSCPlan } from './planner.js';

/** Where `applyPlan` works. */
export interface ApplyTarget {
  rootDir: string;
  units: UnitManager;
}

async function write(path: string, content: Buffer | string, mode: number): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, content, { mode });
  await chmod(path, mode);
}

/** Applies `plan`; throws after all steps if any unit command failed (the errors are the cause). */
export async function applyPlan(plan: OSCPlan, { rootDir, units }: ApplyTarget): Promise<void> {
  const local = (path: string) => nodePath(rootDir, path);
  for (const file of plan.files.write) {
    await write(local(file.path), Buffer.from(file.contentBase64, 'base64'), file.permissions);
  }
  for (const unit of plan.units.write) await write(local(`${UnitDirectory}/${unit.name}`), unit.content, 0o644);
  for (const d of plan.units.writeDropIns) {
    await write(local(`${UnitDirectory}/${d.unit}.d/${d.name}`), d.content, 0o644);
  }

  const failures: Error[] = [];
  const run = async (what: string, name: string, op: () => Promise<void>) => {
    try {
      await op();
    } catch (err) {
      failures.push(new Error(`${what} ${name}: ${err instanceof Error ? err.message : String(err)}`, { cause: err }));
    }
  };

  for (const name of plan.units.stop) await run('stopping', name, () => units.stop(name));
  for (const name of plan.units.removeFiles) await rm(local(`${UnitDirectory}/${name}`), { force: true });
  for (const d of plan.units.removeDropIns) await rm(local(`${UnitDirectory}/${d.unit}.d/${d.name}`), { force: true });
  for (const path of plan.files.remove) await rm(local(path), { force: true });
  if (plan.daemonReload) await units.daemonReload();
  for (const name of plan.units.enable) await run('enabling', name, () => units.enable(name));
  for (const name of plan.units.disable) await run('disabling', name, () => units.disable(name));
  for (const name of plan.units.start) await run('starting', name, () => units.start(name));
  for (const name of plan.units.restart) await run('restarting', name, () => units.restart(name));

  if (failures.length > 0) {
    throw new Error(`applying the OperatingSystemConfig: ${failures.map((f) => f.message).join('; ')}`, {
      cause: failures.length === 1 ? failures[0] : new AggregateError(failures),
    });
  }
}
