import { describe, expect, it } from 'vitest';
import { apiserverConfigType, decodeConfigOrRefuse, goArray, goString, goStruct } from './config-decoding.js';

// One decoder for the structured authentication and authorization ConfigMaps (and the audit policy): the kinds of
// kube-apiserver's apiserver.config.k8s.io scheme, refused with Gardener's messages.
const authorization = apiserverConfigType(
  'AuthorizationConfiguration',
  goStruct('v1beta1.AuthorizationConfiguration', {
    authorizers: goArray(goStruct('v1beta1.AuthorizerConfiguration', { type: goString(), name: goString() })),
  }),
);
const authentication = apiserverConfigType(
  'AuthenticationConfiguration',
  goStruct('v1beta1.AuthenticationConfiguration', {}),
);

describe('decodeConfigOrRefuse', () => {
  it('decodes a configuration of the expected kind in both versions', () => {
    for (const version of ['v1alpha1', 'v1beta1'])
      expect(
        decodeConfigOrRefuse(
          `apiVersion: apiserver.config.k8s.io/${version}\nkind: AuthorizationConfiguration\nauthorizers: [{type: Webhook, name: w}]\n`,
          authorization,
          'authorization configuration',
        ),
      ).toEqual({
        object: {
          apiVersion: `apiserver.config.k8s.io/${version}`,
          kind: 'AuthorizationConfiguration',
          authorizers: [{ type: 'Webhook', name: 'w' }],
        },
        version,
      });
  });

  it("refuses another kind of the scheme as a failed cast (500), each with its own purpose in Gardener's message", () => {
    const raw = 'apiVersion: apiserver.config.k8s.io/v1beta1\nkind: AuthorizationConfiguration\n';
    expect(decodeConfigOrRefuse(raw, authentication, 'authentication configuration')).toEqual({
      refusal: {
        code: 500,
        message:
          'failed to cast to authentication configuration type: apiserver.config.k8s.io/v1beta1, Kind=AuthorizationConfiguration',
      },
    });
  });

  it('refuses what does not decode (422): unregistered versions and kinds, Go type mismatches', () => {
    expect(
      decodeConfigOrRefuse(
        'apiVersion: apiserver.config.k8s.io/v1\nkind: AuthorizationConfiguration\n',
        authorization,
        'authorization configuration',
      ),
    ).toEqual({
      refusal: {
        code: 422,
        message:
          'failed to decode the provided authorization configuration: no kind "AuthorizationConfiguration" is registered for version "apiserver.config.k8s.io/v1"',
      },
    });
    expect(
      decodeConfigOrRefuse(
        'apiVersion: apiserver.config.k8s.io/v1beta1\nkind: AuthorizationConfiguration\nauthorizers: [{name: 3}]\n',
        authorization,
        'authorization configuration',
      ),
    ).toEqual({
      refusal: {
        code: 422,
        message:
          'failed to decode the provided authorization configuration: json: cannot unmarshal number into Go struct field AuthorizerConfiguration.authorizers.name of type string',
      },
    });
  });
});
