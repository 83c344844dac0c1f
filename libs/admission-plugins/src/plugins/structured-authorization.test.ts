import { describe, expect, it } from 'vitest';
import { example, request } from '../../test/examples.js';
import type { KubeObject } from '../attributes.js';
import { runValidating } from '../chain.js';
import { staticListers } from '../listers.js';
import { defaultPlugins } from './index.js';
import { AuthorizationConfigurationValidator } from './structured-authorization.js';

// What `kubectl create configmap authz -n garden-local --from-file=config.yaml` stores.
const config = `apiVersion: apiserver.config.k8s.io/v1beta1
kind: AuthorizationConfiguration
authorizers:
- type: Webhook
  name: policy-engine
  webhook:
    timeout: 3s
    authorizedTTL: 30s
    unauthorizedTTL: 30s
    subjectAccessReviewVersion: v1
    matchConditionSubjectAccessReviewVersion: v1
    failurePolicy: NoOpinion
    matchConditions:
    - expression: has(request.resourceAttributes)
`;

const configMap = (text: string): KubeObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: 'authz', namespace: 'garden-local' },
  data: { 'config.yaml': text },
});

function shoot(kubeconfigs = [{ authorizerName: 'policy-engine', secretName: 'policy-engine-kubeconfig' }]) {
  const s = example('local/shoot.yaml');
  s.spec.kubernetes.kubeAPIServer = { structuredAuthorization: { configMapName: 'authz', kubeconfigs } };
  return s;
}

const validate = (a: Parameters<typeof runValidating>[1], objects: KubeObject[]) =>
  runValidating([AuthorizationConfigurationValidator], a, staticListers(objects));

describe('AuthorizationConfigurationValidator', () => {
  it('admits a Shoot referencing a valid configuration with a kubeconfig per webhook', async () => {
    expect((await validate(request('CREATE', shoot()), [configMap(config)])).allowed).toBe(true);
    expect(defaultPlugins).toContain(AuthorizationConfigurationValidator);
  });

  it('refuses a webhook authorizer the Shoot has no kubeconfig for', async () => {
    const result = await validate(request('CREATE', shoot([])), [configMap(config)]);
    expect(result).toMatchObject({
      allowed: false,
      code: 422,
      message:
        'provided invalid authorization configuration: must provide kubeconfig secret name reference for webhook authorizer "policy-engine" in shoot garden-local/local',
    });
    // Removing the kubeconfig from an existing Shoot is checked too.
    expect((await validate(request('UPDATE', shoot([]), shoot()), [configMap(config)])).allowed).toBe(false);
  });

  it('refuses connectionInfo in the configuration', async () => {
    const withConnection = config.replace(
      '    failurePolicy: NoOpinion\n',
      '    failurePolicy: NoOpinion\n    connectionInfo:\n      type: KubeConfigFile\n      kubeConfigFile: /etc/kubeconfig\n',
    );
    const result = await validate(request('UPDATE', configMap(withConnection), configMap(config)), [shoot()]);
    expect(!result.allowed && result.message).toBe(
      'provided invalid authorization configuration: [authorizers[0].connectionInfo: Forbidden: connectionInfo is not allowed to be set]',
    );
  });

  it('refuses updating a referenced ConfigMap to an invalid configuration, with kube field errors', async () => {
    const invalid = `apiVersion: apiserver.config.k8s.io/v1beta1
kind: AuthorizationConfiguration
authorizers:
- type: Node
  name: node
- type: Webhook
  name: policy-engine
  webhook:
    timeout: 45s
    authorizedTTL: 30s
    unauthorizedTTL: 30s
    subjectAccessReviewVersion: v2
    matchConditions:
    - expression: has(request.resourceAttributes)
`;
    const result = await validate(request('UPDATE', configMap(invalid), configMap(config)), [shoot()]);
    expect(!result.allowed && result.message).toBe(
      'provided invalid authorization configuration: [' +
        '.authorizers[0].type: Unsupported value: "Node": supported values: "Webhook" ' +
        '.authorizers[1].timeout: Invalid value: "45s": must be > 0s and <= 30s ' +
        '.authorizers[1].subjectAccessReviewVersion: Unsupported value: "v2": supported values: "v1", "v1beta1" ' +
        '.authorizers[1].matchConditionSubjectAccessReviewVersion: Required value: required if match conditions are specified ' +
        '.authorizers[1].failurePolicy: Required value]',
    );
    const badDuration = await validate(
      request('UPDATE', configMap(config.replace('timeout: 3s', 'timeout: soon')), configMap(config)),
      [shoot()],
    );
    expect(!badDuration.allowed && badDuration.message).toBe(
      'failed to decode the provided authorization configuration: time: invalid duration "soon"',
    );
  });
});
