// The kube-apiserver's DNS records against the local API server with Gardener's extension CRDs: the seed's internal
// domain credentials copied as `dnsrecord-internal`, the DNSRecord for api.<shoot>.<project>.<domain> deployed and
// waited for until the (fake) extension handled it, and destroyed with its Secret; skipped with a reason for a seed
// without an internal domain or a type no registration serves; the external record of a shoot under the garden's
// default domain the same way, with that domain's credentials (`dnsrecord-external`).
import { join } from 'node:path';
import { ApiClient, Kinds, isNotFound, kind, type KubernetesObject } from '@gardener-ts/controller-runtime';
import { startTestEnvironment, workspaceRoot, type TestEnvironment } from '@gardener-ts/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeExtension } from '../component/testdata/fake-extension.js';
import { exampleValues } from '../component/testdata/fixtures.js';
import { InternalDNSRecordSteps, internalDNSSkipReason } from './dnsrecord-steps.js';
import { ExternalDNSRecordSteps, readExternalDomain } from './external-dns.js';

const values = exampleValues();

describe('the internal DNS record steps', () => {
  it('are skipped for a seed without an internal domain or with a type no registration serves', () => {
    expect(internalDNSSkipReason(values, () => true)).toBeUndefined();
    expect(internalDNSSkipReason(values, (type) => type !== 'local')).toBe(
      'no ControllerRegistration in the garden serves DNSRecord of type local',
    );
    const withoutInternal = { seed: { ...values.seed, spec: { ...values.seed.spec, dns: {} } } } as typeof values;
    expect(internalDNSSkipReason(withoutInternal, () => true)).toBe(
      'seed local has no internal domain (spec.dns.internal)',
    );
  });

  describe('in a seed', () => {
    let env: TestEnvironment;
    let client: ApiClient;
    const DNSRecordKind = kind<KubernetesObject & { spec?: Record<string, unknown> }>(
      'extensions.gardener.cloud/v1alpha1',
      'DNSRecord',
    );
    const ref = { kind: 'DNSRecord', name: 'local-internal', namespace: values.namespace };
    const secretData = async () =>
      (await client.get(Kinds.Secret, { namespace: values.namespace, name: 'dnsrecord-internal' })).data;

    beforeAll(async () => {
      env = await startTestEnvironment({ crds: [join(workspaceRoot(), 'deploy/gardener/crds')] });
      client = await ApiClient.create(env.kubeconfigPath);
      for (const name of [values.namespace, 'garden'])
        await client.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
      // The credentials as an operator writes them.
      await client.create({
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: { name: 'internal-domain-internal-local-gardener-cloud', namespace: 'garden' },
        stringData: { token: 'dns-provider-token' },
      } as KubernetesObject);
    });
    afterAll(async () => {
      client?.close();
      await env?.stop();
    });

    it('deploys the record for the load balancer with its credentials and waits until its extension handled it', async () => {
      const steps = new InternalDNSRecordSteps(client, client, values, { wait: { interval: 50, timeout: 20_000 } });
      const deploying = steps.deploy('127.0.0.1', new AbortController().signal);
      const record = await (async () => {
        for (;;) {
          const found = await client.get(DNSRecordKind, ref).catch(() => undefined);
          if (found) return found;
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      })();
      expect(record.spec).toEqual({
        type: 'local',
        name: 'api.local.local.internal.local.gardener.cloud',
        recordType: 'A',
        values: ['127.0.0.1'],
        ttl: 120,
        secretRef: { name: 'dnsrecord-internal', namespace: values.namespace },
      });
      expect(Buffer.from((await secretData())!.token!, 'base64').toString()).toBe('dns-provider-token');
      await fakeExtension(client).handle(ref);
      await deploying;
    });

    it('destroys the record once its extension released it, and its Secret', async () => {
      const steps = new InternalDNSRecordSteps(client, client, values, { wait: { interval: 50, timeout: 20_000 } });
      const destroying = steps.destroy(new AbortController().signal);
      for (;;) {
        const found = await client.get(DNSRecordKind, ref);
        if (found.metadata?.deletionTimestamp) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      await fakeExtension(client).release(ref);
      await destroying;
      await expect(client.get(DNSRecordKind, ref)).rejects.toSatisfy(isNotFound);
      await expect(secretData()).rejects.toSatisfy(isNotFound);
    });

    it("deploys the external record of a shoot under the garden's default domain with that domain's credentials, and destroys it", async () => {
      const shootValues = exampleValues((shoot) => {
        shoot.spec.dns = { domain: 'local.local.external.local.gardener.cloud' };
      });
      const external = { kind: 'DNSRecord', name: 'local-external', namespace: values.namespace };
      // The default domain Secret as the controller-manager copies it into the seed's garden namespace.
      await client.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'seed-local' } });
      await client.create({
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: {
          name: 'default-domain-external-local-gardener-cloud',
          namespace: 'seed-local',
          labels: { 'gardener.cloud/role': 'default-domain' },
          annotations: {
            'dns.gardener.cloud/provider': 'local',
            'dns.gardener.cloud/domain': 'external.local.gardener.cloud',
          },
        },
        stringData: { token: 'default-domain-token' },
      } as KubernetesObject);
      const domain = await readExternalDomain(client, shootValues);
      expect(domain).toMatchObject({ domain: 'local.local.external.local.gardener.cloud', type: 'local' });

      const steps = new ExternalDNSRecordSteps(client, shootValues, { wait: { interval: 50, timeout: 20_000 } });
      const deploying = steps.deploy(domain!, '127.0.0.1', new AbortController().signal);
      const record = await (async () => {
        for (;;) {
          const found = await client.get(DNSRecordKind, external).catch(() => undefined);
          if (found) return found;
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      })();
      expect(record.spec).toEqual({
        type: 'local',
        name: 'api.local.local.external.local.gardener.cloud',
        recordType: 'A',
        values: ['127.0.0.1'],
        ttl: 120,
        secretRef: { name: 'dnsrecord-external', namespace: values.namespace },
      });
      const credentials = await client.get(Kinds.Secret, { namespace: values.namespace, name: 'dnsrecord-external' });
      expect(Buffer.from(credentials.data!.token!, 'base64').toString()).toBe('default-domain-token');
      await fakeExtension(client).handle(external);
      await deploying;

      const destroying = steps.destroy(new AbortController().signal);
      for (;;) {
        if ((await client.get(DNSRecordKind, external)).metadata?.deletionTimestamp) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      await fakeExtension(client).release(external);
      await destroying;
      await expect(client.get(DNSRecordKind, external)).rejects.toSatisfy(isNotFound);
      await expect(
        client.get(Kinds.Secret, { namespace: values.namespace, name: 'dnsrecord-external' }),
      ).rejects.toSatisfy(isNotFound);
    });
  });
});
