import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { example, request } from '../../test/examples.js';
import { staticListers } from '../listers.js';
import { runMutating } from '../chain.js';
import { ExtensionLabels, extensionLabels } from './extension-labels.js';

describe('ExtensionLabels', () => {
  it("labels Gardener's example Shoot with its provider, networking and container runtime types", async () => {
    const result = await runMutating(
      [ExtensionLabels],
      request('CREATE', example('local/shoot.yaml')),
      staticListers([]),
    );
    expect(result.allowed && result.object?.metadata?.labels).toEqual({
      'provider.extensions.gardener.cloud/local': 'true',
      'networking.extensions.gardener.cloud/calico': 'true',
    });
  });

  it('labels the example Seed with its provider, backup and DNS provider types and the CloudProfile with its type', () => {
    expect(extensionLabels('Seed', example('50-seed.yaml'))).toEqual({
      'provider.extensions.gardener.cloud/local': 'true',
      'dnsrecord.extensions.gardener.cloud/aws-route53': 'true',
      'extensions.extensions.gardener.cloud/foobar': 'true',
    });
    expect(extensionLabels('CloudProfile', example('local/cloudprofile.yaml'))).toEqual({
      'provider.extensions.gardener.cloud/local': 'true',
    });
    expect(extensionLabels('CredentialsBinding', example('local/credentialsbinding.yaml'))).toEqual({
      'provider.extensions.gardener.cloud/local': 'true',
    });
  });

  it('removes labels of types no longer used and keeps the user’s own labels', async () => {
    const shoot = example('local/shoot.yaml');
    shoot.metadata!.labels = { team: 'a', 'networking.extensions.gardener.cloud/cilium': 'true' };
    const result = await runMutating([ExtensionLabels], request('UPDATE', shoot, shoot), staticListers([]));
    expect(result.allowed && result.object?.metadata?.labels).toEqual({
      team: 'a',
      'provider.extensions.gardener.cloud/local': 'true',
      'networking.extensions.gardener.cloud/calico': 'true',
    });
  });

  it('is idempotent: a labelled object is left unchanged', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.stringMatching(/^[a-z][a-z0-9-]{0,10}$/), { maxLength: 4 }), async (types) => {
        const shoot = example('local/shoot.yaml');
        shoot.spec.extensions = types.map((type) => ({ type }));
        const first = await runMutating([ExtensionLabels], request('CREATE', shoot), staticListers([]));
        if (!first.allowed || !first.object) throw new Error('expected labels');
        for (const type of types)
          expect(first.object.metadata?.labels?.[`extensions.extensions.gardener.cloud/${type}`]).toBe('true');
        const second = await runMutating(
          [ExtensionLabels],
          request('UPDATE', first.object, first.object),
          staticListers([]),
        );
        expect(second.allowed && second.object).toBeUndefined();
      }),
      { numRuns: 30 },
    );
  });
});
