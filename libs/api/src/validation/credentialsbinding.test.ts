// CredentialsBinding validation: one valid and one invalid case per Gardener rule (security.gardener.cloud).
import { describe, expect, it } from 'vitest';
import type { CredentialsBinding } from '../security/v1alpha1/credentialsbinding.js';
import { validateCredentialsBinding } from './project.js';

function binding(mutate: (b: CredentialsBinding) => void = () => {}): CredentialsBinding {
  const b: CredentialsBinding = {
    apiVersion: 'security.gardener.cloud/v1alpha1',
    kind: 'CredentialsBinding',
    metadata: { name: 'local', namespace: 'garden-local' },
    credentialsRef: { apiVersion: 'v1', kind: 'Secret', name: 'local', namespace: 'garden-local' },
    provider: { type: 'local' },
    quotas: [{ name: 'trial', namespace: 'garden' }],
  } as CredentialsBinding;
  mutate(b);
  return b;
}
const messages = (b: CredentialsBinding, old?: CredentialsBinding) =>
  validateCredentialsBinding(b, old).map((e) => e.message);
const subdomain =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";

describe('validateCredentialsBinding', () => {
  it('accepts a binding to a Secret or a WorkloadIdentity, and an unchanged update', () => {
    expect(messages(binding())).toEqual([]);
    expect(
      messages(
        binding(
          (b) =>
            (b.credentialsRef = {
              apiVersion: 'security.gardener.cloud/v1alpha1',
              kind: 'WorkloadIdentity',
              name: 'wi',
              namespace: 'garden-local',
            }),
        ),
      ),
    ).toEqual([]);
    expect(messages(binding(), binding())).toEqual([]);
  });

  const cases: [string, (b: CredentialsBinding) => void, string[]][] = [
    [
      'provider type is required',
      (b) => (b.provider.type = ''),
      ['provider.type: Required value: must specify a provider type'],
    ],
    [
      'only one provider type',
      (b) => (b.provider.type = 'aws,gcp'),
      ['provider.type: Invalid value: "aws,gcp": multiple providers specified'],
    ],
    [
      'apiVersion is required',
      (b) => (b.credentialsRef.apiVersion = ''),
      [
        'credentialsRef.apiVersion: Required value: must provide an apiVersion',
        'credentialsRef: Unsupported value: "/Secret": supported values: "v1/Secret", "security.gardener.cloud/v1alpha1/WorkloadIdentity"',
      ],
    ],
    [
      'kind is required',
      (b) => (b.credentialsRef.kind = ''),
      [
        'credentialsRef.kind: Required value: must provide a kind',
        'credentialsRef: Unsupported value: "v1/": supported values: "v1/Secret", "security.gardener.cloud/v1alpha1/WorkloadIdentity"',
      ],
    ],
    [
      'only Secrets and WorkloadIdentities',
      (b) => (b.credentialsRef.kind = 'ConfigMap'),
      [
        'credentialsRef: Unsupported value: "v1/ConfigMap": supported values: "v1/Secret", "security.gardener.cloud/v1alpha1/WorkloadIdentity"',
      ],
    ],
    [
      'name is required',
      (b) => (b.credentialsRef.name = ''),
      [
        'credentialsRef.name: Required value: must provide a name',
        `credentialsRef.name: Invalid value: "": ${subdomain}`,
      ],
    ],
    [
      'name is a DNS subdomain',
      (b) => (b.credentialsRef.name = 'Local'),
      [`credentialsRef.name: Invalid value: "Local": ${subdomain}`],
    ],
    [
      'namespace is required',
      (b) => (b.credentialsRef.namespace = ''),
      [
        'credentialsRef.namespace: Required value: must provide a namespace',
        `credentialsRef.namespace: Invalid value: "": ${subdomain}`,
      ],
    ],
    [
      'namespace is a DNS subdomain',
      (b) => (b.credentialsRef.namespace = 'garden_local'),
      [`credentialsRef.namespace: Invalid value: "garden_local": ${subdomain}`],
    ],
    [
      'quotas are named',
      (b) => (b.quotas = [{ name: '', namespace: 'garden' }]),
      ['quotas[0].name: Required value: must provide a name'],
    ],
  ];
  for (const [rule, mutate, expected] of cases) {
    it(`rejects: ${rule}`, () => expect(messages(binding(mutate))).toEqual(expected));
  }

  const updates: [string, (b: CredentialsBinding) => void, string][] = [
    [
      'credentialsRef',
      (b) => (b.credentialsRef.name = 'other'),
      'credentialsRef: Invalid value: {"apiVersion":"v1","kind":"Secret","name":"other","namespace":"garden-local"}: field is immutable',
    ],
    ['quotas', (b) => (b.quotas = []), 'quotas: Invalid value: []: field is immutable'],
    ['provider', (b) => (b.provider.type = 'aws'), 'provider: Invalid value: {"type":"aws"}: field is immutable'],
  ];
  for (const [f, mutate, expected] of updates) {
    it(`keeps ${f} immutable; metadata may change`, () => {
      expect(messages(binding(mutate), binding())).toEqual([expected]);
      expect(
        messages(
          binding((b) => (b.metadata!.labels = { a: 'b' })),
          binding(),
        ),
      ).toEqual([]);
    });
  }
});
