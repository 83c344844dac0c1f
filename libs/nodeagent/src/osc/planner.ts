// The OperatingSystemConfig planner of gardener-node-agent: from the configuration applied last and the new one, what to
// do on the node — files to write and remove, unit files and drop-ins to write and remove, units to enable/disable and
// to start, restart or stop. Pure: data in, plan out. Follows Gardener's node-agent (pkg/nodeagent/controller/
// operatingsystemconfig): a unit is acted on only when its definition (content, drop-ins, command, enable) changed, it
// is new, or a file it names in `filePaths` changed; a unit with `command: stop` is stopped instead of (re)started;
// removed units are stopped, disabled and their files deleted; `enable` unset means enabled.
import type { NodeConfig, OSCDropIn, OSCUnit, ResolvedFile } from './types.js';

/** A drop-in file of a unit (`/etc/systemd/system/<unit>.d/<name>`). */
export interface DropInRef {
  unit: string;
  name: string;
}

/** What the node must do to move from the last applied configuration to the new one. */
export interface OSCPlan {
  files: {
    /** New files and files whose content or permissions changed. */
    write: ResolvedFile[];
    /** Paths of files the new configuration no longer has. */
    remove: string[];
  };
  units: {
    /** Unit files to (re)write (units that bring their own `content`). */
    write: { name: string; content: string }[];
    /** Unit files to delete (units removed, or that no longer bring content). */
    removeFiles: string[];
    /** Drop-ins to (re)write. */
    writeDropIns: (DropInRef & { content: string })[];
    /** Drop-ins to delete. */
    removeDropIns: DropInRef[];
    enable: string[];
    disable: string[];
    /** New units to start. */
    start: string[];
    /** Changed units (or units whose files changed) to restart. */
    restart: string[];
    /** Units to stop: removed ones and changed ones with `command: stop`. */
    stop: string[];
  };
  /** Whether unit files or drop-ins changed on disk (systemd's `daemon-reload`). */
  daemonReload: boolean;
}

/** Whether a plan does nothing at all. */
export function isEmptyPlan(plan: OSCPlan): boolean {
  const { files, units } = plan;
  return (
    !plan.daemonReload &&
    files.write.length + files.remove.length === 0 &&
    Object.values(units).every((list) => list.length === 0)
  );
}

const byName = <T extends { name: string }>(items: T[]): Map<string, T> => new Map(items.map((i) => [i.name, i]));
const byPath = (files: ResolvedFile[]): Map<string, ResolvedFile> => new Map(files.map((f) => [f.path, f]));
const sameFile = (a: ResolvedFile | undefined, b: ResolvedFile | undefined): boolean =>
  !!a && !!b && a.contentBase64 === b.contentBase64 && a.permissions === b.permissions;
const dropInsOf = (unit: OSCUnit | undefined): Map<string, OSCDropIn> => byName(unit?.dropIns ?? []);
const isEnabled = (unit: OSCUnit): boolean => unit.enable !== false;

/** Whether two definitions of the same unit differ in anything that needs the unit acted on. */
export function unitChanged(before: OSCUnit, after: OSCUnit): boolean {
  if ((before.content ?? '') !== (after.content ?? '')) return true;
  if ((before.command ?? '') !== (after.command ?? '')) return true;
  if (isEnabled(before) !== isEnabled(after)) return true;
  const a = dropInsOf(before);
  const b = dropInsOf(after);
  if (a.size !== b.size) return true;
  for (const [name, dropIn] of b) if (a.get(name)?.content !== dropIn.content) return true;
  return false;
}

/**
 * Plans the move from `previous` (the configuration applied last; undefined on a fresh node) to `next`. Lists are
 * sorted by name or path, so the plan of the same input is always the same.
 */
export function planOSC(previous: NodeConfig | undefined, next: NodeConfig): OSCPlan {
  const oldFiles = byPath(previous?.files ?? []);
  const newFiles = byPath(next.files);
  const oldUnits = byName(previous?.units ?? []);
  const newUnits = byName(next.units);

  const plan: OSCPlan = {
    files: { write: [], remove: [] },
    units: {
      write: [],
      removeFiles: [],
      writeDropIns: [],
      removeDropIns: [],
      enable: [],
      disable: [],
      start: [],
      restart: [],
      stop: [],
    },
    daemonReload: false,
  };

  const changedFiles = new Set<string>();
  for (const [path, file] of newFiles) {
    if (!sameFile(oldFiles.get(path), file)) {
      plan.files.write.push(file);
      changedFiles.add(path);
    }
  }
  for (const path of oldFiles.keys()) {
    if (!newFiles.has(path)) {
      plan.files.remove.push(path);
      changedFiles.add(path);
    }
  }

  for (const [name, unit] of newUnits) {
    const before = oldUnits.get(name);
    const definitionChanged = !before || unitChanged(before, unit);
    const filesChanged = (unit.filePaths ?? []).some((path: string) => changedFiles.has(path));
    if (!definitionChanged && !filesChanged) continue;

    if (definitionChanged) {
      if (unit.content !== undefined && unit.content !== before?.content) {
        plan.units.write.push({ name, content: unit.content });
      } else if (unit.content === undefined && before?.content !== undefined) {
        plan.units.removeFiles.push(name);
      }
      const oldDropIns = dropInsOf(before);
      for (const dropIn of unit.dropIns ?? []) {
        if (oldDropIns.get(dropIn.name)?.content !== dropIn.content) {
          plan.units.writeDropIns.push({ unit: name, name: dropIn.name, content: dropIn.content });
        }
      }
      const newDropIns = dropInsOf(unit);
      for (const dropInName of oldDropIns.keys()) {
        if (!newDropIns.has(dropInName)) plan.units.removeDropIns.push({ unit: name, name: dropInName });
      }
      (isEnabled(unit) ? plan.units.enable : plan.units.disable).push(name);
    }

    if (unit.command === 'stop') plan.units.stop.push(name);
    else if (!before) plan.units.start.push(name);
    else plan.units.restart.push(name);
  }

  for (const [name, unit] of oldUnits) {
    if (newUnits.has(name)) continue;
    plan.units.stop.push(name);
    plan.units.disable.push(name);
    if (unit.content !== undefined) plan.units.removeFiles.push(name);
    for (const dropIn of unit.dropIns ?? []) plan.units.removeDropIns.push({ unit: name, name: dropIn.name });
  }

  plan.daemonReload =
    plan.units.write.length +
      plan.units.removeFiles.length +
      plan.units.writeDropIns.length +
      plan.units.removeDropIns.length >
    0;

  const byKey = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  plan.files.write.sort((a, b) => byKey(a.path, b.path));
  plan.files.remove.sort(byKey);
  plan.units.write.sort((a, b) => byKey(a.name, b.name));
  plan.units.writeDropIns.sort((a, b) => byKey(`${a.unit}/${a.name}`, `${b.unit}/${b.name}`));
  plan.units.removeDropIns.sort((a, b) => byKey(`${a.unit}/${a.name}`, `${b.unit}/${b.name}`));
  for (const list of [
    plan.units.removeFiles,
    plan.units.enable,
    plan.units.disable,
    plan.units.start,
    plan.units.restart,
    plan.units.stop,
  ]) {
    list.sort(byKey);
  }
  return plan;
}
