import { describe, expect, it } from 'vitest';
import { example, request } from '../../test/examples.js';
import { staticListers } from '../listers.js';
import { runChain } from '../chain.js';
import type { KubeObject } from '../attributes.js';
import { ShootValidator } from './shoot-validator.js';
import { referencedSecretNames, validateAdmissionPluginKubeconfigs } from './shoot-admission-plugin-kubeconfigs.js';

/** Gardener's example Shoot whose PodNodeSelector admission plugin reads its kubeconfig from `secretName`. */
function shoot(secretName = 'plugin-kubeconfig', referenced: string[] = [secretName]): KubeObject {
  const s = example('local/shoot.yaml');
  delete s.metadata!.annotations!['authentication.gardener.cloud/issuer']; // the garden of these tests has none
  s.spec.kubernetes.kubeAPIServer = {
    admissionPlugins: [{ name: 'PodNodeSelector' }, { name: 'ImagePolicyWebhook', kubeconfigSecretName: secretName }],
  };
  s.spec.resources = referenced.map((name) => ({
    name: `ref-${name}`,
    resourceRef: { apiVersion: 'v1', kind: 'Secret', name },
  }));
  return s;
}

const secret = (data: Record<string, string>, name = 'plugin-kubeconfig', namespace = 'garden-local'): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Secret',
  metadata: { name, namespace },
  data,
});
const messages = (errors: { message: string }[]) => errors.map((e) => e.message);
const kubeconfig = { kubeconfig: Buffer.from('apiVersion: v1').toString('base64') };

describe('admission plugin kubeconfig references', () => {
  it('accepts a kubeconfig Secret referenced in spec.resources that has a kubeconfig', async () => {
    expect(
      await validateAdmissionPluginKubeconfigs(shoot(), 'garden-local', staticListers([secret(kubeconfig)])),
    ).toEqual([]);
  });

  it("refuses a Secret not referenced in spec.resources, with Gardener's message", async () => {
    const s = shoot('plugin-kubeconfig', []);
    expect(
      messages(await validateAdmissionPluginKubeconfigs(s, 'garden-local', staticListers([secret(kubeconfig)]))),
    ).toEqual([
      'spec.kubernetes.kubeAPIServer.admissionPlugins[1].kubeconfigSecretName: Invalid value: "plugin-kubeconfig": secret should be referenced in shoot .spec.resources',
    ]);
  });

  it('counts only v1 Secret references (by the referenced name, not the reference name)', () => {
    const s = shoot();
    s.spec.resources.push(
      { name: 'cm', resourceRef: { apiVersion: 'v1', kind: 'ConfigMap', name: 'cm' } },
      { name: 'other', resourceRef: { apiVersion: 'v2', kind: 'Secret', name: 'odd' } },
    );
    expect([...referencedSecretNames(s)]).toEqual(['plugin-kubeconfig']);
  });

  it('refuses a referenced Secret that is missing or has no kubeconfig key', async () => {
    expect(messages(await validateAdmissionPluginKubeconfigs(shoot(), 'garden-local', staticListers([])))).toEqual([
      'spec.kubernetes.kubeAPIServer.admissionPlugins[1].kubeconfigSecretName: Internal error: unable to get the referenced secret: namespace: garden-local, name: plugin-kubeconfig, error: secret "plugin-kubeconfig" not found',
    ]);
    // A Secret of the same name in another namespace does not count.
    expect(
      await validateAdmissionPluginKubeconfigs(
        shoot(),
        'garden-local',
        staticListers([secret(kubeconfig, 'plugin-kubeconfig', 'garden-other')]),
      ),
    ).toHaveLength(1);
    expect(
      messages(
        await validateAdmissionPluginKubeconfigs(shoot(), 'garden-local', staticListers([secret({ other: 'eA==' })])),
      ),
    ).toEqual([
      'spec.kubernetes.kubeAPIServer.admissionPlugins[1].kubeconfigSecretName: Invalid value: "plugin-kubeconfig": referenced kubeconfig secret doesn\'t contain kubeconfig: namespace: garden-local, name: plugin-kubeconfig',
    ]);
  });

  it('ignores a Shoot without kube-apiserver settings', async () => {
    expect(
      await validateAdmissionPluginKubeconfigs(example('local/shoot.yaml'), 'garden-local', staticListers([])),
    ).toEqual([]);
  });
});

describe('ShootValidator: admission plugin kubeconfigs', () => {
  it('refuses a new Shoot whose admission plugin kubeconfig Secret is not referenced', async () => {
    const result = await runChain(
      [ShootValidator],
      request('CREATE', shoot('plugin-kubeconfig', [])),
      staticListers(
        [example('local/project.yaml'), example('local/cloudprofile.yaml'), secret(kubeconfig)],
        async () => true,
      ),
    );
    expect(result).toMatchObject({
      allowed: false,
      code: 403,
      message:
        'shoots.core.gardener.cloud "local" is forbidden: spec.kubernetes.kubeAPIServer.admissionPlugins[1].kubeconfigSecretName: Invalid value: "plugin-kubeconfig": secret should be referenced in shoot .spec.resources',
    });
  });
});
