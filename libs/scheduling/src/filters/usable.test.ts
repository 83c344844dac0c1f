import { describe, expect, it } from 'vitest';
import type { Seed } from '@gardener-ts/api';
import { seed } from '../../test/fixtures.js';
import { unusableReason } from './usable.js';

const condition = (type: string, status: string) =>
  ({
    type,
    status,
    lastTransitionTime: '2026-01-01T00:00:00Z',
    lastUpdateTime: '2026-01-01T00:00:00Z',
    reason: type,
    message: '',
  }) as never;

describe('usable seeds', () => {
  const cases: [string, (s: Seed) => void, string | undefined][] = [
    ['a ready seed fits', () => undefined, undefined],
    ['settings absent means visible', (s) => delete s.spec.settings, undefined],
    [
      'a seed with backup and BackupBucketsReady True fits',
      (s) => {
        s.spec.backup = { provider: 'aws', region: 'eu-west-1' } as never;
        s.status!.conditions!.push(condition('BackupBucketsReady', 'True'));
      },
      undefined,
    ],
    [
      'BackupBucketsReady False is ignored without backup',
      (s) => s.status!.conditions!.push(condition('BackupBucketsReady', 'False')),
      undefined,
    ],
    [
      'a deleting seed is rejected',
      (s) => (s.metadata!.deletionTimestamp = '2026-01-01T00:00:00Z'),
      'seed is being deleted',
    ],
    [
      'a seed under an emergency stop of shoot reconciliations is rejected',
      (s) => (s.metadata!.annotations = { 'shoot.gardener.cloud/emergency-stop-reconciliations': 'true' }),
      'shoot reconciliations on the seed are stopped (emergency stop)',
    ],
    [
      'an emergency stop annotation set to false does not stop',
      (s) => (s.metadata!.annotations = { 'shoot.gardener.cloud/emergency-stop-reconciliations': 'false' }),
      undefined,
    ],
    [
      'an invisible seed is rejected',
      (s) => (s.spec.settings = { scheduling: { visible: false } }),
      'seed is not visible for scheduling',
    ],
    [
      'a seed without last operation is rejected',
      (s) => delete s.status!.lastOperation,
      'seed has no last operation yet',
    ],
    [
      'GardenletReady Unknown is rejected',
      (s) => (s.status!.conditions = [condition('GardenletReady', 'Unknown')]),
      'condition GardenletReady is Unknown',
    ],
    ['a missing GardenletReady is rejected', (s) => (s.status!.conditions = []), 'condition GardenletReady is missing'],
    [
      'backup without BackupBucketsReady is rejected',
      (s) => (s.spec.backup = { provider: 'aws', region: 'eu-west-1' } as never),
      'condition BackupBucketsReady is missing',
    ],
    [
      'backup with BackupBucketsReady False is rejected',
      (s) => {
        s.spec.backup = { provider: 'aws', region: 'eu-west-1' } as never;
        s.status!.conditions!.push(condition('BackupBucketsReady', 'False'));
      },
      'condition BackupBucketsReady is False',
    ],
  ];
  it.each(cases)('%s', (_name, change, expected) => {
    expect(unusableReason(seed('s', change))).toBe(expected);
  });
});
