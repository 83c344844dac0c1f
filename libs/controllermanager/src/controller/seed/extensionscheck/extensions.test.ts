import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ControllerInstallation } from '@gardener-ts/api';
import { initCondition, type WallClock } from '@gardener-ts/controller-runtime';
import {
  classifyInstallations,
  extensionsReadyCondition,
  goMapString,
  InstallationConditionTypes,
  judgeExtensions,
} from './extensions.js';

type Status = 'True' | 'False' | 'Unknown' | 'Progressing';
const T = '2026-01-01T00:00:00Z';

/** An installation with the given condition statuses (message `<type> of <name>`). */
function installation(name: string, statuses: Partial<Record<string, Status>>): ControllerInstallation {
  return {
    apiVersion: 'core.gardener.cloud/v1beta1',
    kind: 'ControllerInstallation',
    metadata: { name },
    spec: { registrationRef: { name: 'r' }, seedRef: { name: 'local' } },
    status: {
      conditions: Object.entries(statuses).map(([type, status]) => ({
        type,
        status: status!,
        reason: 'R',
        message: `${type} of ${name}`,
        lastTransitionTime: T,
        lastUpdateTime: T,
      })),
    },
  };
}
const ready = { Valid: 'True', Installed: 'True', Healthy: 'True', Progressing: 'False' } as const;

describe('judgeExtensions', () => {
  it('is True with Gardener’s reason and message when every installation is ready, and when there is none', () => {
    const expected = {
      status: 'True',
      reason: 'AllExtensionsReady',
      message: 'All extensions installed into the seed cluster are ready and healthy.',
    };
    expect(judgeExtensions([installation('a', ready), installation('b', { ...ready, Other: 'False' })])).toEqual(
      expected,
    );
    expect(judgeExtensions([])).toEqual(expected);
  });

  it('names the failing installations as Go prints a map, sorted by name', () => {
    expect(
      judgeExtensions([
        installation('zeta', { ...ready, Healthy: 'False' }),
        installation('alpha', { ...ready, Healthy: 'Unknown' }),
        installation('mid', ready),
      ]),
    ).toEqual({
      status: 'False',
      reason: 'NotAllExtensionsHealthy',
      message: 'Some extensions are not healthy: map[alpha:Healthy of alpha zeta:Healthy of zeta]',
    });
  });

  it('reports not valid before not installed before not healthy before progressing', () => {
    const all = [
      installation('p', { ...ready, Progressing: 'True' }),
      installation('h', { ...ready, Healthy: 'False' }),
      installation('i', { ...ready, Installed: 'False' }),
      installation('v', { ...ready, Valid: 'False' }),
    ];
    const reasons = [];
    for (let n = all.length; n > 0; n--) reasons.push(judgeExtensions(all.slice(0, n)).reason);
    expect(reasons).toEqual([
      'NotAllExtensionsValid',
      'NotAllExtensionsInstalled',
      'NotAllExtensionsHealthy',
      'SomeExtensionsProgressing',
    ]);
    expect(judgeExtensions(all.slice(0, 1)).message).toBe('Some extensions are progressing: map[p:Progressing of p]');
  });

  it('treats an installation without conditions as not installed and one missing a condition as not healthy', () => {
    expect(judgeExtensions([installation('new', {})])).toMatchObject({
      reason: 'NotAllExtensionsInstalled',
      message: 'Some extensions are not installed: map[new:extension was not yet installed]',
    });
    expect(
      judgeExtensions([installation('partial', { Valid: 'True', Installed: 'True', Healthy: 'True' })]),
    ).toMatchObject({
      reason: 'NotAllExtensionsHealthy',
      message:
        'Some extensions are not healthy: map[partial:not all required conditions found in ControllerInstallation]',
    });
  });

  it('is True exactly when every installation has all four conditions in their ready state (property)', () => {
    const status = fc.constantFrom<Status | undefined>('True', 'False', 'Unknown', 'Progressing', undefined);
    const statuses = fc.record({ Valid: status, Installed: status, Healthy: status, Progressing: status });
    fc.assert(
      fc.property(fc.array(statuses, { maxLength: 5 }), (list) => {
        const installations = list.map((s, i) =>
          installation(
            `ext-${i}`,
            Object.fromEntries(Object.entries(s).filter(([, v]) => v !== undefined)) as Record<string, Status>,
          ),
        );
        const allReady = list.every((s) => InstallationConditionTypes.every((t) => s[t] === ready[t]));
        const verdict = judgeExtensions(installations);
        expect(verdict.status).toBe(allReady ? 'True' : 'False');
        // Every failing installation shows up in exactly one class.
        const f = classifyInstallations(installations);
        for (const inst of installations) {
          const name = inst.metadata!.name!;
          const ok = InstallationConditionTypes.every(
            (t) => inst.status!.conditions!.find((c) => c.type === t)?.status === ready[t],
          );
          const classes = [f.notValid, f.notInstalled, f.notHealthy, f.progressing].filter((m) => m.has(name));
          expect(classes.length > 0).toBe(!ok);
        }
        // The message names exactly the installations of the first failing class.
        const first = [f.notValid, f.notInstalled, f.notHealthy, f.progressing].find((m) => m.size > 0);
        if (first) expect(verdict.message.endsWith(`: ${goMapString(first)}`)).toBe(true);
      }),
    );
  });
});

describe('goMapString', () => {
  it('prints like Go’s %+v of a map[string]string', () => {
    expect(goMapString(new Map())).toBe('map[]');
    expect(
      goMapString(
        new Map([
          ['b', ''],
          ['a', 'x y'],
        ]),
      ),
    ).toBe('map[a:x y b:]');
  });
});

describe('extensionsReadyCondition', () => {
  const minute = 60_000;
  let now = Date.parse(T);
  const clock: WallClock = { now: () => new Date(now) };
  const broken = [installation('x', { ...ready, Healthy: 'False' })];

  it('turns a True condition Progressing for the threshold, then False; recovery is True at once', () => {
    now = Date.parse(T);
    const init = initCondition('ExtensionsReady', clock);
    const first = extensionsReadyCondition(init, broken, minute, clock);
    // From the initial Unknown the eventual status is set at once, as Gardener does.
    expect(first.status).toBe('False');
    const healthy = extensionsReadyCondition(first, [installation('x', ready)], minute, clock);
    expect(healthy).toMatchObject({ status: 'True', reason: 'AllExtensionsReady' });
    now += 1000;
    const progressing = extensionsReadyCondition(healthy, broken, minute, clock);
    expect(progressing).toMatchObject({ status: 'Progressing', reason: 'NotAllExtensionsHealthy' });
    now += minute;
    expect(extensionsReadyCondition(progressing, broken, minute, clock).status).toBe('Progressing');
    now += 1000;
    expect(extensionsReadyCondition(progressing, broken, minute, clock)).toMatchObject({
      status: 'False',
      reason: 'NotAllExtensionsHealthy',
      message: 'Some extensions are not healthy: map[x:Healthy of x]',
    });
    expect(extensionsReadyCondition(healthy, broken, 0, clock).status).toBe('False');
  });
});
