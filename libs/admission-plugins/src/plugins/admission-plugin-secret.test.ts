import { describe, expect, it } from 'vitest';
import { example } from '../../test/examples.js';
import { staticListers } from '../listers.js';
import { runValidating } from '../chain.js';
import { AdmissionPluginSecretValidator } from './admission-plugin-secret.js';
import type { AdmissionAttributes, KubeObject } from '../attributes.js';

/** Gardener's example Shoot whose PodNodeSelector admission plugin reads its kubeconfig from Secret `plugin-kubeconfig`. */
function shoot(name: string, secretName = 'plugin-kubeconfig'): KubeObject {
  const s = example('local/shoot.yaml');
  s.metadata!.name = name;
  s.spec.kubernetes.kubeAPIServer = {
    admissionPlugins: [{ name: 'PodNodeSelector', kubeconfigSecretName: secretName }],
  };
  return s;
}

const update = (data: Record<string, string>, namespace = 'garden-local'): AdmissionAttributes => {
  const secret = (d: Record<string, string>) => ({
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: 'plugin-kubeconfig', namespace },
    data: d,
  });
  return {
    operation: 'UPDATE',
    kind: { group: '', version: 'v1', kind: 'Secret' },
    resource: { group: '', version: 'v1', resource: 'secrets' },
    namespace,
    name: 'plugin-kubeconfig',
    object: secret(data),
    oldObject: secret({ kubeconfig: 'YXBpVmVyc2lvbjogdjE=' }),
    userInfo: { username: 'alice' },
  };
};

describe('AdmissionPluginSecretValidator', () => {
  const listers = staticListers([shoot('a'), shoot('b'), shoot('c', 'other')]);

  it("refuses removing or emptying the kubeconfig of a Secret Shoots use, naming them, with Gardener's message", async () => {
    for (const data of [{}, { kubeconfig: '' }, { other: 'eA==' }] as Record<string, string>[])
      expect(await runValidating([AdmissionPluginSecretValidator], update(data), listers)).toMatchObject({
        allowed: false,
        code: 403,
        message:
          'Secret "plugin-kubeconfig" is forbidden: data kubeconfig can\'t be removed from secret or set to empty because secret is in use by shoots: [a, b]',
      });
  });

  it('allows a changed kubeconfig, and any change of a Secret no Shoot of its namespace uses', async () => {
    expect(
      (await runValidating([AdmissionPluginSecretValidator], update({ kubeconfig: 'eA==' }), listers)).allowed,
    ).toBe(true);
    expect((await runValidating([AdmissionPluginSecretValidator], update({}, 'garden-other'), listers)).allowed).toBe(
      true,
    );
  });
});
