import { describe, expect, it } from 'vitest';
import {
  SubjectTokenError,
  eventFilter,
  eventSubject,
  heartbeatFilter,
  heartbeatSubject,
  seedPermissions,
  gardenPermissions,
  wakeUpFilter,
  wakeUpSubject,
} from '../src/index.js';

describe('subjects', () => {
  it('put the family, then the seed scope, then the object', () => {
    expect(eventSubject({ seed: 'seed-a', kind: 'Shoot', namespace: 'garden-dev', name: 'alpha' })).toBe(
      'gardener.v1.events.seed-a.Shoot.garden-dev.alpha',
    );
    expect(wakeUpSubject({ seed: 'seed-a', kind: 'WorkerPool', namespace: 'shoot--dev--alpha', name: 'pool-a' })).toBe(
      'gardener.v1.wakeups.seed-a.WorkerPool.shoot--dev--alpha.pool-a',
    );
    expect(heartbeatSubject({ seed: 'seed-a', component: 'gardenlet', identity: 'gardenlet-7d9f' })).toBe(
      'gardener.v1.heartbeats.seed-a.gardenlet.gardenlet-7d9f',
    );
  });

  it('use _garden for garden components and _ for cluster-scoped objects', () => {
    expect(eventSubject({ kind: 'Shoot', namespace: 'garden-dev', name: 'alpha' })).toBe(
      'gardener.v1.events._garden.Shoot.garden-dev.alpha',
    );
    expect(eventSubject({ seed: 'seed-a', kind: 'Seed', name: 'seed-a' })).toBe(
      'gardener.v1.events.seed-a.Seed._.seed-a',
    );
    expect(eventSubject({ seed: 'seed-a', kind: 'Seed', namespace: '', name: 'seed-a' })).toBe(
      'gardener.v1.events.seed-a.Seed._.seed-a',
    );
  });

  it('build subscription filters with wildcards for absent fields', () => {
    expect(eventFilter()).toBe('gardener.v1.events.*.*.*.*');
    expect(eventFilter({ kind: 'Shoot', namespace: 'garden-dev', name: 'alpha' })).toBe(
      'gardener.v1.events.*.Shoot.garden-dev.alpha',
    );
    expect(eventFilter({ seed: 'seed-a', namespace: '' })).toBe('gardener.v1.events.seed-a.*._.*');
    expect(wakeUpFilter({ seed: 'seed-a', kind: 'WorkerPool' })).toBe('gardener.v1.wakeups.seed-a.WorkerPool.*.*');
    expect(heartbeatFilter({ component: 'gardenlet' })).toBe('gardener.v1.heartbeats.*.gardenlet.*');
  });

  it.each([
    ['name', 'a.b', '"." separates subject tokens'],
    ['name', '*', 'wildcards'],
    ['namespace', 'ns>', 'wildcards'],
    ['name', 'a b', 'whitespace'],
    ['name', 'a\tb', 'whitespace'],
    ['name', '', 'empty'],
    ['kind', 'x'.repeat(254), 'longer than 253'],
  ])('reject %s=%j', (field, value, reason) => {
    const s = { seed: 'seed-a', kind: 'Shoot', namespace: 'ns', name: 'n', [field]: value };
    expect(() => eventSubject(s)).toThrow(SubjectTokenError);
    expect(() => eventSubject(s)).toThrow(`invalid subject token ${field}=${JSON.stringify(value)}: `);
    expect(() => eventSubject(s)).toThrow(reason);
  });

  it('reject wildcards in seeds, components and identities, even in filters', () => {
    expect(() => eventSubject({ seed: '*', kind: 'Shoot', name: 'n' })).toThrow('invalid subject token seed="*"');
    expect(() => heartbeatSubject({ seed: 'seed-a', component: 'gardenlet', identity: 'pod.1' })).toThrow(
      'invalid subject token identity',
    );
    expect(() => heartbeatSubject({ component: '>', identity: 'x' })).toThrow('invalid subject token component');
    expect(() => eventFilter({ seed: 'seed.a' })).toThrow('invalid subject token seed');
    expect(() => seedPermissions('seed a')).toThrow('invalid subject token seed');
  });

  it('narrow a seed component to its own seed', () => {
    expect(seedPermissions('seed-a')).toEqual({
      publish: { allow: ['gardener.v1.*.seed-a.>'] },
      subscribe: { allow: ['gardener.v1.wakeups.seed-a.>', '_INBOX.>'] },
    });
    // Garden components answer requests (the scheduler's preview), so they may publish to reply inboxes.
    expect(gardenPermissions().publish.allow).toContain('_INBOX.>');
    expect(gardenPermissions().publish.allow).not.toContain('gardener.v1.>');
  });
});
