import { describe, expect, it } from 'vitest';
import { ConfigError, parseComponentConfig } from '../load.js';
import { schedulerConfigSpec } from './scheduler.js';

const HEAD = 'apiVersion: scheduler.config.gardener.cloud/v1alpha1\nkind: SchedulerConfiguration\n';

function refusal(text: string): ConfigError {
  try {
    parseComponentConfig(schedulerConfigSpec, text);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return err as ConfigError;
  }
  throw new Error('expected the configuration to be refused');
}

describe('SchedulerConfiguration', () => {
  it("defaults like Gardener's scheduler", () => {
    const config = parseComponentConfig(schedulerConfigSpec, HEAD).config;
    expect(config.schedulers.shoot).toEqual({
      concurrentSyncs: 5,
      retrySyncPeriod: '15s',
      candidateDeterminationStrategy: 'SameRegion',
    });
    expect(config.schedulers.backupBucket.concurrentSyncs).toBe(2);
    expect(config.leaderElection).toMatchObject({
      leaderElect: true,
      resourceName: 'gardener-scheduler-leader-election',
      resourceNamespace: 'garden',
    });
    expect(config.server.healthProbes.port).toBe(10251);
    expect(config.server.metrics.port).toBe(19251);
    expect(config.nats).toBeUndefined();
  });

  it('reads Gardener example configuration', () => {
    const config = parseComponentConfig(
      schedulerConfigSpec,
      `${HEAD}schedulers:\n  shoot:\n    concurrentSyncs: 10\n    candidateDeterminationStrategy: MinimalDistance\n`,
    ).config;
    expect(config.schedulers.shoot.candidateDeterminationStrategy).toBe('MinimalDistance');
    expect(config.schedulers.shoot.concurrentSyncs).toBe(10);
  });

  it('refuses unknown strategies and names the field', () => {
    expect(refusal(`${HEAD}schedulers:\n  shoot:\n    candidateDeterminationStrategy: Closest\n`).message).toContain(
      'schedulers.shoot.candidateDeterminationStrategy',
    );
  });

  it('reads the gardener-ts nats block', () => {
    const config = parseComponentConfig(
      schedulerConfigSpec,
      `${HEAD}nats:\n  servers: nats://127.0.0.1:4222\n  credsFile: /etc/nats/scheduler.creds\n`,
    ).config;
    expect(config.nats).toEqual({ servers: 'nats://127.0.0.1:4222', credsFile: '/etc/nats/scheduler.creds' });
    expect(refusal(`${HEAD}nats:\n  servers: []\n`).message).toContain('nats.servers');
    expect(refusal(`${HEAD}nats:\n  servers: nats://x:4222\n  token: a\n  credsFile: /b\n`).message).toContain(
      'at most one',
    );
  });
});
