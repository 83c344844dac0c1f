// provider-local's configuration: the webhook server's address and port and the leader election block, with the
// defaults of Gardener's provider-local flags.
import { describe, expect, it } from 'vitest';
import { ConfigError, parseComponentConfig } from '../load.js';
import { providerLocalConfigSpec } from './provider-local.js';

const header = 'apiVersion: local.provider.extensions.config.gardener.cloud/v1alpha1\nkind: ControllerConfiguration\n';

function refused(text: string): string[] {
  try {
    parseComponentConfig(providerLocalConfigSpec, header + text);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as ConfigError).errors.map((e) => e.field).sort();
  }
  throw new Error('expected the configuration to be refused');
}

describe('providerLocalConfigSpec: webhook server and leader election', () => {
  it('defaults to leader election on the Lease provider-local-leader-election of the Pod namespace and port 9443', () => {
    const { config, ignoredFields } = parseComponentConfig(providerLocalConfigSpec, header);
    expect(ignoredFields).toEqual([]);
    expect(config.server.webhooks).toEqual({ bindAddress: '', port: 9443 });
    expect(config.leaderElection).toEqual({
      leaderElect: true,
      leaseDuration: '15s',
      renewDeadline: '10s',
      retryPeriod: '2s',
      resourceLock: 'leases',
      resourceName: 'provider-local-leader-election',
      // Empty: the Pod's own namespace, decided at start.
      resourceNamespace: '',
    });
    // The probes and metrics keep their defaults next to the webhook server.
    expect(providerLocalConfigSpec.runtime(config)).toMatchObject({
      healthProbes: { bindAddress: '0.0.0.0', port: 8081 },
      metrics: { bindAddress: '0.0.0.0', port: 8080 },
    });
  });

  it('takes the settings from the file', () => {
    const { config, ignoredFields } = parseComponentConfig(
      providerLocalConfigSpec,
      header +
        [
          'server:',
          '  webhooks:',
          "    bindAddress: '[::]'",
          '    port: 10250',
          'leaderElection:',
          '  leaderElect: false',
          '  leaseDuration: 30s',
          '  renewDeadline: 20s',
          '  retryPeriod: 5s',
          '  resourceName: my-lease',
          '  resourceNamespace: extension-provider-local',
        ].join('\n'),
    );
    expect(ignoredFields).toEqual([]);
    expect(config.server.webhooks).toEqual({ bindAddress: '::', port: 10250 });
    expect(config.leaderElection).toMatchObject({
      leaderElect: false,
      leaseDuration: '30s',
      renewDeadline: '20s',
      retryPeriod: '5s',
      resourceName: 'my-lease',
      resourceNamespace: 'extension-provider-local',
    });
  });

  it('refuses a bad port, duration or lock, naming the field', () => {
    expect(refused('server:\n  webhooks:\n    port: 70000\n')).toEqual(['server.webhooks.port']);
    expect(refused('leaderElection:\n  leaseDuration: a while\n')).toEqual(['leaderElection.leaseDuration']);
    expect(refused('leaderElection:\n  resourceLock: configmaps\n')).toEqual(['leaderElection.resourceLock']);
  });
});
