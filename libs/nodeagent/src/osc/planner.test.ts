import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isEmptyPlan, planOSC } from './planner.js';
import type { NodeConfig, OSCUnit, ResolvedFile } from './types.js';

const b64 = (s: string) => Buffer.from(s).toString('base64');
const file = (path: string, content: string, permissions = 0o644): ResolvedFile => ({
  path,
  contentBase64: b64(content),
  permissions,
});

// Small alphabets, so that generated configurations share units and files and differ in a few of them.
const paths = ['/var/lib/kubelet/config/kubelet', '/etc/a.conf', '/etc/b.conf', '/opt/bin/health-monitor'];
const unitNames = ['kubelet.service', 'containerd.service', 'monitor.service', 'extra.service'];

const fileArb: fc.Arbitrary<ResolvedFile> = fc.record({
  path: fc.constantFrom(...paths),
  contentBase64: fc.constantFrom('a', 'b', 'c').map(b64),
  permissions: fc.constantFrom(0o644, 0o755),
});

const unitArb = (name: string): fc.Arbitrary<OSCUnit> =>
  fc.record(
    {
      name: fc.constant(name),
      content: fc.constantFrom('[Service]\nExecStart=/opt/bin/x', '[Service]\nExecStart=/opt/bin/y'),
      command: fc.constantFrom('start', 'restart', 'stop'),
      enable: fc.boolean(),
      dropIns: fc.uniqueArray(
        fc.record({ name: fc.constantFrom('10-a.conf', '20-b.conf'), content: fc.constantFrom('x', 'y') }),
        { selector: (d) => d.name, maxLength: 2 },
      ),
      filePaths: fc.subarray(paths),
    },
    { requiredKeys: ['name'] },
  );

const configArb: fc.Arbitrary<NodeConfig> = fc.record({
  units: fc.subarray(unitNames).chain((names) => fc.tuple(...names.map(unitArb)).map((units) => units as OSCUnit[])),
  files: fc.uniqueArray(fileArb, { selector: (f) => f.path }),
});

/** `config` with a few units and files changed: the shape of a real OSC update. */
const changedArb = (config: NodeConfig): fc.Arbitrary<NodeConfig> =>
  fc
    .record({
      replaceUnits: fc.subarray(config.units.map((u) => u.name)),
      dropUnits: fc.subarray(config.units.map((u) => u.name)),
      extra: configArb,
      dropFiles: fc.subarray(config.files.map((f) => f.path)),
    })
    .chain(({ replaceUnits, dropUnits, extra, dropFiles }) =>
      fc.tuple(...replaceUnits.map(unitArb)).map((replacements) => {
        const units = new Map(config.units.map((u) => [u.name, u]));
        for (const u of replacements as OSCUnit[]) units.set(u.name, u);
        for (const name of dropUnits) units.delete(name);
        for (const u of extra.units) if (!units.has(u.name)) units.set(u.name, u);
        const files = new Map(config.files.map((f) => [f.path, f]));
        for (const path of dropFiles) files.delete(path);
        for (const f of extra.files.slice(0, 1)) files.set(f.path, f);
        return { units: [...units.values()], files: [...files.values()] };
      }),
    );

const pairArb = configArb.chain((old) => changedArb(old).map((next) => ({ old, next })));

const actedOn = (plan: ReturnType<typeof planOSC>) =>
  new Set([
    ...plan.units.start,
    ...plan.units.restart,
    ...plan.units.stop,
    ...plan.units.enable,
    ...plan.units.disable,
  ]);

describe('planOSC', () => {
  it('plans nothing when the configuration did not change', () => {
    fc.assert(
      fc.property(configArb, (config) => {
        expect(isEmptyPlan(planOSC(structuredClone(config), config))).toBe(true);
      }),
    );
  });

  it('never acts on a unit whose definition and files are unchanged', () => {
    fc.assert(
      fc.property(pairArb, ({ old, next }) => {
        const plan = planOSC(old, next);
        const oldUnits = new Map(old.units.map((u) => [u.name, u]));
        const oldFiles = new Map(old.files.map((f) => [f.path, f]));
        const newFiles = new Map(next.files.map((f) => [f.path, f]));
        const touched = actedOn(plan);
        for (const unit of next.units) {
          const before = oldUnits.get(unit.name);
          const filesSame = (unit.filePaths ?? []).every(
            (p: string) => JSON.stringify(oldFiles.get(p)) === JSON.stringify(newFiles.get(p)),
          );
          if (before && JSON.stringify(before) === JSON.stringify(unit) && filesSame) {
            expect(touched.has(unit.name), `${unit.name} is unaffected but acted on`).toBe(false);
          }
        }
      }),
    );
  });

  it('leaves the node with exactly the new files', () => {
    fc.assert(
      fc.property(pairArb, ({ old, next }) => {
        const plan = planOSC(old, next);
        const disk = new Map(old.files.map((f) => [f.path, f]));
        for (const path of plan.files.remove) disk.delete(path);
        for (const f of plan.files.write) disk.set(f.path, f);
        expect(Object.fromEntries(disk)).toEqual(Object.fromEntries(next.files.map((f) => [f.path, f])));
      }),
    );
  });

  it('runs each unit at most once, stops removed units and brings changed units to their command', () => {
    fc.assert(
      fc.property(pairArb, ({ old, next }) => {
        const plan = planOSC(old, next);
        const all = [...plan.units.start, ...plan.units.restart, ...plan.units.stop];
        expect(new Set(all).size).toBe(all.length);
        const newNames = new Set(next.units.map((u) => u.name));
        for (const unit of old.units) {
          if (!newNames.has(unit.name)) {
            expect(plan.units.stop).toContain(unit.name);
            expect(plan.units.disable).toContain(unit.name);
          }
        }
        for (const name of plan.units.start) expect(old.units.some((u) => u.name === name)).toBe(false);
        for (const unit of next.units) {
          if (unit.command === 'stop' && actedOn(plan).has(unit.name)) expect(plan.units.stop).toContain(unit.name);
        }
      }),
    );
  });

  it('leaves the node with exactly the new unit files and drop-ins', () => {
    fc.assert(
      fc.property(pairArb, ({ old, next }) => {
        const plan = planOSC(old, next);
        const unitFiles = new Map(old.units.filter((u) => u.content !== undefined).map((u) => [u.name, u.content]));
        const dropIns = new Map(
          old.units.flatMap((u) =>
            (u.dropIns ?? []).map((d: { name: string; content: string }) => [`${u.name}/${d.name}`, d.content]),
          ),
        );
        for (const name of plan.units.removeFiles) unitFiles.delete(name);
        for (const u of plan.units.write) unitFiles.set(u.name, u.content);
        for (const d of plan.units.removeDropIns) dropIns.delete(`${d.unit}/${d.name}`);
        for (const d of plan.units.writeDropIns) dropIns.set(`${d.unit}/${d.name}`, d.content);
        expect(Object.fromEntries(unitFiles)).toEqual(
          Object.fromEntries(next.units.filter((u) => u.content !== undefined).map((u) => [u.name, u.content])),
        );
        expect(Object.fromEntries(dropIns)).toEqual(
          Object.fromEntries(
            next.units.flatMap((u) =>
              (u.dropIns ?? []).map((d: { name: string; content: string }) => [`${u.name}/${d.name}`, d.content]),
            ),
          ),
        );
        expect(plan.daemonReload).toBe(
          plan.units.write.length +
            plan.units.removeFiles.length +
            plan.units.writeDropIns.length +
            plan.units.removeDropIns.length >
            0,
        );
      }),
    );
  });

  it('restarts the kubelet when its configuration file changes, and nothing else', () => {
    const kubelet: OSCUnit = {
      name: 'kubelet.service',
      command: 'start',
      enable: true,
      content: '[Service]\nExecStart=/opt/bin/kubelet --config=/var/lib/kubelet/config/kubelet',
      filePaths: ['/var/lib/kubelet/config/kubelet'],
    };
    const monitor: OSCUnit = { name: 'monitor.service', command: 'start', content: '[Service]\nExecStart=/opt/bin/m' };
    const old: NodeConfig = {
      units: [kubelet, monitor],
      files: [file('/var/lib/kubelet/config/kubelet', 'maxPods: 110'), file('/etc/motd', 'hi')],
    };
    const next: NodeConfig = {
      units: [kubelet, monitor],
      files: [file('/var/lib/kubelet/config/kubelet', 'maxPods: 50'), file('/etc/motd', 'hi')],
    };
    const plan = planOSC(old, next);
    expect(plan.units.restart).toEqual(['kubelet.service']);
    expect(plan.units.start).toEqual([]);
    expect(plan.files.write.map((f) => f.path)).toEqual(['/var/lib/kubelet/config/kubelet']);
    expect(plan.daemonReload).toBe(false);
  });

  it('on a fresh node writes everything and starts every unit', () => {
    const plan = planOSC(undefined, {
      units: [
        { name: 'containerd.service', dropIns: [{ name: '10-opts.conf', content: '[Service]\nEnvironment=A=b' }] },
        { name: 'kubelet.service', command: 'start', enable: true, content: '[Service]\nExecStart=/opt/bin/kubelet' },
      ],
      files: [file('/etc/a', 'a')],
    });
    expect(plan.units.start).toEqual(['containerd.service', 'kubelet.service']);
    expect(plan.units.write.map((u) => u.name)).toEqual(['kubelet.service']);
    expect(plan.units.writeDropIns).toEqual([
      { unit: 'containerd.service', name: '10-opts.conf', content: '[Service]\nEnvironment=A=b' },
    ]);
    expect(plan.units.enable).toEqual(['containerd.service', 'kubelet.service']);
    expect(plan.daemonReload).toBe(true);
  });
});
