import { describe, expect, it } from 'vitest';
import { example, request } from '../../test/examples.js';
import type { KubeObject } from '../attributes.js';
import { runValidating } from '../chain.js';
import { staticListers } from '../listers.js';
import { defaultPlugins } from './index.js';
import { AuthenticationConfigurationValidator } from './structured-authentication.js';

// What `kubectl create configmap authn -n garden-local --from-file=config.yaml` stores (the example of the
// Kubernetes documentation on structured authentication configuration).
const config = `apiVersion: apiserver.config.k8s.io/v1beta1
kind: AuthenticationConfiguration
jwt:
- issuer:
    url: https://issuer.example.com
    audiences:
    - my-app
  claimValidationRules:
  - claim: hd
    requiredValue: example.com
  claimMappings:
    username:
      claim: sub
      prefix: "oidc:"
    groups:
      claim: groups
      prefix: ""
`;

const configMap = (text: string): KubeObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: 'authn', namespace: 'garden-local' },
  data: { 'config.yaml': text },
});

function shoot(kubeAPIServer: Record<string, unknown> = {}): KubeObject {
  const s = example('local/shoot.yaml');
  s.spec.kubernetes.kubeAPIServer = { structuredAuthentication: { configMapName: 'authn' }, ...kubeAPIServer };
  return s;
}

const validate = (a: Parameters<typeof runValidating>[1], objects: KubeObject[]) =>
  runValidating([AuthenticationConfigurationValidator], a, staticListers(objects));

describe('AuthenticationConfigurationValidator', () => {
  it('admits a Shoot referencing a valid configuration and refuses one whose ConfigMap is missing', async () => {
    expect((await validate(request('CREATE', shoot()), [configMap(config)])).allowed).toBe(true);
    const missing = await validate(request('CREATE', shoot()), []);
    expect(!missing.allowed && missing.message).toBe(
      'referenced authentication configuration ConfigMap garden-local/authn does not exist: configmaps "authn" not found',
    );
    expect(defaultPlugins).toContain(AuthenticationConfigurationValidator);
  });

  it('refuses updating a referenced ConfigMap to an invalid configuration, with kube field errors', async () => {
    const invalid = `apiVersion: apiserver.config.k8s.io/v1beta1
kind: AuthenticationConfiguration
jwt:
- issuer:
    url: http://issuer.example.com?x=y
  claimMappings:
    username:
      claim: sub
`;
    const result = await validate(request('UPDATE', configMap(invalid), configMap(config)), [shoot()]);
    expect(result).toMatchObject({
      allowed: false,
      code: 422,
      message:
        'provided invalid authentication configuration: [' +
        'jwt[0].issuer.url: Invalid value: "http://issuer.example.com?x=y": URL scheme must be https ' +
        'jwt[0].issuer.url: Invalid value: "http://issuer.example.com?x=y": URL must not contain a query ' +
        'jwt[0].issuer.audiences: Required value: at least one jwt[0].issuer.audiences is required ' +
        'jwt[0].claimMappings.username.prefix: Required value: prefix is required when claim is set. It can be set to an empty string to disable prefixing]',
    });
  });

  it("refuses the Shoot's own issuers, also when a Shoot update adds one", async () => {
    const own = shoot({ serviceAccountConfig: { issuer: 'https://issuer.example.com' } });
    const result = await validate(request('CREATE', own), [configMap(config)]);
    expect(!result.allowed && result.message).toBe(
      'provided invalid authentication configuration: [jwt[0].issuer.url: Invalid value: "https://issuer.example.com": URL must not overlap with disallowed issuers: [https://issuer.example.com]]',
    );
    const old = shoot();
    expect((await validate(request('UPDATE', own, old), [configMap(config)])).allowed).toBe(false);
    const hibernated = structuredClone(old);
    hibernated.spec.hibernation = { enabled: true };
    expect((await validate(request('UPDATE', hibernated, old), [])).allowed).toBe(true);
  });

  it('refuses anonymous authentication while a referencing Shoot uses the legacy switch', async () => {
    const anonymous = `${config}anonymous:
  enabled: true
  conditions:
  - path: /livez
`;
    const legacy = shoot({ enableAnonymousAuthentication: true });
    const result = await validate(request('UPDATE', configMap(anonymous), configMap(config)), [legacy]);
    expect(!result.allowed && result.message).toBe(
      'cannot use anonymous authentication configuration when the following shoots have the legacy configuration enabled: local',
    );
    expect((await validate(request('UPDATE', configMap(anonymous), configMap(config)), [shoot()])).allowed).toBe(true);
  });

  it('refuses configurations the decoder cannot read', async () => {
    const result = await validate(request('CREATE', shoot()), [
      configMap(config.replace('AuthenticationConfiguration', 'AuthenticationConfig')),
    ]);
    expect(!result.allowed && result.message).toBe(
      'failed to decode the provided authentication configuration: no kind "AuthenticationConfig" is registered for version "apiserver.config.k8s.io/v1beta1"',
    );
  });
});
