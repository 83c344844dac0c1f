// The kube-apiserver's internal DNS record against the local API server with Gardener's extension CRDs: the seed's
// internal domain credentials copied as `dnsrecord-internal`, the DNSRecord for api.<shoot>.<project>.<domain>
// deployed and waited for until the (fake) extension handled it, and destroyed with its Secret; skipped with a reason
// for a seed without an internal domain or a type no registration serves.
import { join } from 'node:path';
import { ApiClient, Kinds, isNotFound, kind, type KubernetesObject } from '@gardener-ts/controller-runtime';
import { startTestEnvironment, workspaceRoot, type TestEnvironment } from '@gardener-ts/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeExtension } from '../component/testdata/fake-extension.js';
import { exampleValues } from '../component/testdata/fixtures.js';
import { InternalDNSRecordSteps, internalDNSSkipReason } from './dnsrecord-steps.js';

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
  });
});
