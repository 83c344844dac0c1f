// gardener-admission-controller's provider secret labels and update restriction handlers and ResourceReferenceManager's
// binding provider checks through the real webhooks on a test API server, driven with kubectl as a garden user would.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kubectl, runKubectl, startTestEnvironment, workspaceRoot, type TestEnvironment } from '@gardener-ts/testing';
import { startTestAdmission, type TestGardenWebhooks } from '../src/testing.js';

const examples = join(workspaceRoot(), 'deploy/gardener/examples/local');
const labelsOf = async (kc: string, args: string[]) =>
  JSON.parse((await kubectl(kc, ['get', ...args, '-o', 'jsonpath={.metadata.labels}'])) || '{}') as Record<
    string,
    string
  >;

describe('gardener-admission-controller handlers', () => {
  let env: TestEnvironment;
  let admission: TestGardenWebhooks;
  let kc: string;

  beforeAll(async () => {
    env = await startTestEnvironment({ crds: [join(workspaceRoot(), 'libs/api/crds')] });
    kc = env.kubeconfigPath;
    admission = await startTestAdmission(kc);
    for (const file of ['cloudprofile.yaml', 'namespace.yaml', 'project.yaml'])
      await kubectl(kc, ['apply', '-f', join(examples, file)]);
  }, 120_000);

  afterAll(async () => {
    await admission?.stop();
    await env?.stop();
  });

  it('labels a project Secret with the provider types of the bindings referencing it', async () => {
    const secret = [
      'apiVersion: v1',
      'kind: Secret',
      'metadata:',
      '  name: local',
      '  namespace: garden-local',
      '  labels:',
      '    provider.shoot.gardener.cloud/stale: "true"',
      'stringData:',
      '  token: not-a-real-token',
    ].join('\n');
    await kubectl(kc, ['apply', '-f', '-'], { input: secret });
    // No binding references it yet: its labels stay.
    expect(await labelsOf(kc, ['secret', 'local', '-n', 'garden-local'])).toEqual({
      'provider.shoot.gardener.cloud/stale': 'true',
    });
    await kubectl(kc, ['apply', '-f', join(examples, 'credentialsbinding.yaml')]);
    await kubectl(kc, ['label', 'secret', 'local', '-n', 'garden-local', 'team=a']);
    expect(await labelsOf(kc, ['secret', 'local', '-n', 'garden-local'])).toEqual({
      team: 'a',
      'provider.shoot.gardener.cloud/local': 'true',
    });
    // Outside project namespaces the webhook is not called.
    await kubectl(kc, ['create', 'secret', 'generic', 'local', '-n', 'default', '--from-literal=token=x']);
    const elsewhere = [
      'apiVersion: security.gardener.cloud/v1alpha1',
      'kind: CredentialsBinding',
      'metadata: { name: elsewhere, namespace: garden-local }',
      'credentialsRef: { apiVersion: v1, kind: Secret, name: local, namespace: default }',
      'provider: { type: local }',
    ].join('\n');
    await kubectl(kc, ['apply', '-f', '-'], { input: elsewhere });
    await kubectl(kc, ['label', 'secret', 'local', '-n', 'default', 'team=b']);
    expect(await labelsOf(kc, ['secret', 'local', '-n', 'default'])).toEqual({ team: 'b' });
  });

  it('refuses a binding whose new provider type the Shoots using it do not have', async () => {
    const binding = [
      'apiVersion: core.gardener.cloud/v1beta1',
      'kind: SecretBinding',
      'metadata: { name: no-provider, namespace: garden-local }',
      'secretRef: { name: local, namespace: garden-local }',
    ].join('\n');
    await kubectl(kc, ['apply', '-f', '-'], { input: binding });
    const shoot = readFileSync(join(examples, 'shoot.yaml'), 'utf8')
      .replace('name: local\n  namespace', 'name: sb-user\n  namespace')
      .replace('credentialsBindingName: local', 'secretBindingName: no-provider');
    await kubectl(kc, ['apply', '-f', '-'], { input: shoot });

    const patch = (type: string) =>
      runKubectl(kc, [
        'patch',
        'secretbinding',
        'no-provider',
        '-n',
        'garden-local',
        '--type=merge',
        '-p',
        JSON.stringify({ provider: { type } }),
      ]);
    const refused = await patch('aws');
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain(
      'secretbindings.core.gardener.cloud "no-provider" is forbidden: SecretBinding is referenced by shoot "sb-user", but provider types ([aws]) do not match with the shoot provider type "local"',
    );
    expect((await patch('local')).code).toBe(0);
  });

  it('creates a copy of the binding’s Secret with dry run and refuses the binding when that fails', async () => {
    // A namespace whose quota admits no further Secret: the sanity check's copy is refused there.
    await kubectl(kc, ['create', 'namespace', 'team-credentials']);
    await kubectl(kc, ['create', 'secret', 'generic', 'shared', '-n', 'team-credentials', '--from-literal=token=x']);
    await kubectl(kc, ['create', 'quota', 'secrets', '-n', 'team-credentials', '--hard=secrets=1']);
    const binding = [
      'apiVersion: security.gardener.cloud/v1alpha1',
      'kind: CredentialsBinding',
      'metadata: { name: shared, namespace: garden-local }',
      'credentialsRef: { apiVersion: v1, kind: Secret, name: shared, namespace: team-credentials }',
      'provider: { type: local }',
    ].join('\n');
    const refused = await runKubectl(kc, ['apply', '-f', '-'], { input: binding });
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain(
      'credentialsbindings.security.gardener.cloud "shared" is forbidden: local provider secret sanity check failed: ',
    );
    expect(refused.stderr).toContain('exceeded quota');
    // The dry run stored nothing.
    expect(await kubectl(kc, ['get', 'secrets', '-n', 'team-credentials', '-o', 'name'])).toBe('secret/shared\n');
  });

  it('lets only gardenlets write Secrets and ConfigMaps labelled gardener.cloud/update-restriction=true', async () => {
    const configMap = [
      'apiVersion: v1',
      'kind: ConfigMap',
      'metadata:',
      '  name: system',
      '  namespace: default',
      '  labels:',
      '    gardener.cloud/update-restriction: "true"',
      'data:',
      '  a: b',
    ].join('\n');
    const refused = await runKubectl(kc, ['create', '-f', '-'], { input: configMap });
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(
      /admission webhook "update-restriction.gardener.cloud" denied the request: user "[^"]+" is not allowed to CREATE system configmaps/,
    );
    // A self-hosted shoot's gardenlet (system:masters only to pass RBAC).
    const gardenlet = [
      '--as=gardener.cloud:system:shoot:garden-local:local',
      '--as-group=gardener.cloud:system:shoots',
      '--as-group=system:masters',
    ];
    await kubectl(kc, [...gardenlet, 'create', '-f', '-'], { input: configMap });
    const update = await runKubectl(kc, ['label', 'configmap', 'system', '-n', 'default', 'x=y']);
    expect(update.stderr).toMatch(/user "[^"]+" is not allowed to UPDATE system configmaps/);
    const remove = await runKubectl(kc, ['delete', 'configmap', 'system', '-n', 'default']);
    expect(remove.stderr).toMatch(/user "[^"]+" is not allowed to DELETE system configmaps/);
    // Unlabelled objects are not sent to the webhook.
    await kubectl(kc, ['create', 'configmap', 'plain', '-n', 'default', '--from-literal=a=b']);
    await kubectl(kc, [
      '--as=system:serviceaccount:kube-system:generic-garbage-collector',
      '--as-group=system:masters',
      'delete',
      'configmap',
      'system',
      '-n',
      'default',
    ]);
  });
});
