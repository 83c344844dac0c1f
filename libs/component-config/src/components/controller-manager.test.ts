// Tests of the controller-manager configuration's project quotas (`controllers.project.quotas`): Gardener's commented
// example block accepted as written, and Gardener's validation (a config is required, the selector must be valid,
// quantities must parse).
import { describe, expect, it } from 'vitest';
import { ConfigError, parseComponentConfig } from '../load.js';
import { controllerManagerConfigSpec } from './controller-manager.js';

const HEADER = 'apiVersion: controllermanager.config.gardener.cloud/v1alpha1\nkind: ControllerManagerConfiguration\n';

const withQuotas = (quotas: string) => `${HEADER}controllers:\n  project:\n    quotas:\n${quotas}`;

function fieldErrors(text: string): string[] {
  try {
    parseComponentConfig(controllerManagerConfigSpec, text);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    return err.errors.map((e) => `${e.field}: ${e.message}`);
  }
  return [];
}

describe('controllers.project.quotas', () => {
  it("accepts Gardener's example quota block and keeps quantities as text", () => {
    const { config, ignoredFields } = parseComponentConfig(
      controllerManagerConfigSpec,
      withQuotas(`    - config:
        apiVersion: v1
        kind: ResourceQuota
        metadata:
          labels: { team: a }
        spec:
          hard:
            count/shoots.core.gardener.cloud: "100"
            count/secrets: 400
      projectSelector: {}
`),
    );
    expect(ignoredFields).toEqual([]);
    expect(config.controllers.project.quotas).toEqual([
      {
        config: {
          apiVersion: 'v1',
          kind: 'ResourceQuota',
          metadata: { labels: { team: 'a' } },
          spec: { hard: { 'count/shoots.core.gardener.cloud': '100', 'count/secrets': '400' } },
        },
        projectSelector: {},
      },
    ]);
  });

  it('has no quotas by default', () => {
    const { config } = parseComponentConfig(controllerManagerConfigSpec, HEADER);
    expect(config.controllers.project.quotas).toBeUndefined();
  });

  it('requires a config, a valid selector and valid quantities', () => {
    expect(fieldErrors(withQuotas('    - projectSelector: {}\n'))).toEqual([
      'controllers.project.quotas[0].config: must provide a quota config',
    ]);
    const badSelector = withQuotas(`    - config: { spec: { hard: { count/secrets: "1" } } }
      projectSelector:
        matchExpressions: [{ key: stage, operator: Maybe }]
`);
    expect(fieldErrors(badSelector)).toEqual([
      'controllers.project.quotas[0].projectSelector: "Maybe" is not a valid label selector operator',
    ]);
    const badQuantity = withQuotas('    - config: { spec: { hard: { count/secrets: lots } } }\n');
    expect(fieldErrors(badQuantity)).toEqual([
      "controllers.project.quotas[0].config.spec.hard.count/secrets: quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'",
    ]);
  });
});

describe('controllers.project stale settings', () => {
  it("defaults to Gardener's values: 5 workers, 30 days minimum lifetime, 14 days grace, 90 days expiration, 12h", () => {
    const { config } = parseComponentConfig(controllerManagerConfigSpec, HEADER);
    expect(config.controllers.project).toEqual({
      concurrentSyncs: 5,
      minimumLifetimeDays: 30,
      staleGracePeriodDays: 14,
      staleExpirationTimeDays: 90,
      staleSyncPeriod: '12h',
    });
  });

  it('keeps configured values and rejects negative day counts', () => {
    const { config } = parseComponentConfig(
      controllerManagerConfigSpec,
      `${HEADER}controllers:\n  project:\n    minimumLifetimeDays: 1\n    staleGracePeriodDays: 2\n    staleExpirationTimeDays: 3\n    staleSyncPeriod: 1m\n`,
    );
    expect(config.controllers.project).toMatchObject({
      minimumLifetimeDays: 1,
      staleGracePeriodDays: 2,
      staleExpirationTimeDays: 3,
      staleSyncPeriod: '1m',
    });
    expect(fieldErrors(`${HEADER}controllers:\n  project:\n    staleGracePeriodDays: -1\n`)).toHaveLength(1);
  });
});
