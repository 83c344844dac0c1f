// The leader election settings provider-local derives from its configuration and the Pod's namespace.
import { describe, expect, it } from 'vitest';
import { parseComponentConfig, providerLocalConfigSpec } from '@gardener-ts/component-config';
import { leaderElectionSettings } from './provider-local.js';

const parse = (text = '') =>
  parseComponentConfig(
    providerLocalConfigSpec,
    `apiVersion: local.provider.extensions.config.gardener.cloud/v1alpha1\nkind: ControllerConfiguration\n${text}`,
  ).config;

describe('leaderElectionSettings', () => {
  it("campaigns by default for the Lease provider-local-leader-election in the extension's namespace", () => {
    expect(leaderElectionSettings(parse(), 'extension-provider-local-abc')).toEqual({
      leaderElect: true,
      leaseDuration: '15s',
      renewDeadline: '10s',
      retryPeriod: '2s',
      resourceLock: 'leases',
      resourceName: 'provider-local-leader-election',
      resourceNamespace: 'extension-provider-local-abc',
    });
  });

  it('prefers the configured namespace and keeps the configured durations', () => {
    const config = parse(
      'leaderElection:\n  resourceNamespace: garden\n  leaseDuration: 30s\n  renewDeadline: 20s\n  retryPeriod: 5s\n',
    );
    expect(leaderElectionSettings(config, 'extension-provider-local-abc')).toMatchObject({
      resourceNamespace: 'garden',
      leaseDuration: '30s',
      renewDeadline: '20s',
      retryPeriod: '5s',
    });
    // Outside a cluster the configured namespace is enough.
    expect(leaderElectionSettings(config, undefined)?.resourceNamespace).toBe('garden');
  });

  it('refuses to campaign without any namespace, and needs none when turned off', () => {
    expect(() => leaderElectionSettings(parse(), undefined)).toThrow(
      /leaderElection\.resourceNamespace or \$POD_NAMESPACE/,
    );
    expect(leaderElectionSettings(parse('leaderElection:\n  leaderElect: false\n'), undefined)).toBeUndefined();
  });
});
