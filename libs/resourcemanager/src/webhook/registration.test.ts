import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resourceManagerConfigSpec, type ResourceManagerConfiguration } from '@gardener-ts/component-config';
import { caBundleOf, registrationTarget } from './registration.js';

const config = (doc: Record<string, unknown>) =>
  resourceManagerConfigSpec.schema.parse({
    apiVersion: 'resourcemanager.config.gardener.cloud/v1alpha1',
    kind: 'ResourceManagerConfiguration',
    ...doc,
  }) as ResourceManagerConfiguration;

describe('webhook registration target', () => {
  it('is the configured URL, else the Service, else this process on loopback or its bind address', () => {
    expect(
      registrationTarget(config({ webhookRegistration: { enabled: true, url: 'https://grm.example:9449' } }), 1234),
    ).toEqual({ url: 'https://grm.example:9449' });
    expect(
      registrationTarget(
        config({ webhookRegistration: { enabled: true, service: { namespace: 'garden', name: 'grm' } } }),
        1234,
      ),
    ).toEqual({ service: { namespace: 'garden', name: 'grm' } });
    expect(registrationTarget(config({}), 1234)).toEqual({ url: 'https://127.0.0.1:1234' });
    expect(registrationTarget(config({ server: { webhooks: { bindAddress: '0.0.0.0' } } }), 1234)).toEqual({
      url: 'https://127.0.0.1:1234',
    });
    expect(registrationTarget(config({ server: { webhooks: { bindAddress: '10.1.2.3' } } }), 1234)).toEqual({
      url: 'https://10.1.2.3:1234',
    });
    expect(registrationTarget(config({ server: { webhooks: { bindAddress: '::1' } } }), 1234)).toEqual({
      url: 'https://[::1]:1234',
    });
  });

  it('takes the generated CA, else ca.crt of the certificate directory, else its tls.crt', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'rm-registration-'));
    await writeFile(join(dir, 'tls.crt'), 'LEAF');
    expect(await caBundleOf(dir, 'GENERATED')).toBe('GENERATED');
    expect(await caBundleOf(dir)).toBe('LEAF');
    await writeFile(join(dir, 'ca.crt'), 'CA');
    expect(await caBundleOf(dir)).toBe('CA');
  });
});
