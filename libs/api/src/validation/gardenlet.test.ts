// Gardenlet validation: one valid and one invalid case per Gardener rule (seedmanagement.gardener.cloud).
import { describe, expect, it } from 'vitest';
import type { Gardenlet } from '../seedmanagement/v1alpha1/gardenlet.js';
import { validateGardenlet } from './gardenlet.js';
import { validateObject } from './registry.js';

function gardenlet(mutate: (g: Gardenlet) => void = () => {}): Gardenlet {
  const g = {
    apiVersion: 'seedmanagement.gardener.cloud/v1alpha1',
    kind: 'Gardenlet',
    metadata: { name: 'local', namespace: 'garden' },
    spec: {
      deployment: {
        replicaCount: 1,
        helm: { ociRepository: { ref: 'registry.example.com/gardener/charts/gardenlet:v1.120.0' } },
      },
      config: {
        apiVersion: 'gardenlet.config.gardener.cloud/v1alpha1',
        kind: 'GardenletConfiguration',
        seedConfig: { metadata: { labels: { base: 'local' } }, spec: {} },
      },
    },
  } as unknown as Gardenlet;
  mutate(g);
  return g;
}
const messages = (g: Gardenlet, old?: Gardenlet) => validateGardenlet(g, old).map((e) => e.message);
const config = (g: Gardenlet) => g.spec.config as Record<string, any>;

describe('validateGardenlet', () => {
  it('accepts a valid Gardenlet, through validateObject too, and an unchanged update', () => {
    expect(messages(gardenlet())).toEqual([]);
    expect(validateObject(gardenlet() as never)).toEqual([]);
    expect(messages(gardenlet(), gardenlet())).toEqual([]);
    expect(
      messages(
        gardenlet(
          (g) => (g.spec.deployment.helm.ociRepository = { repository: 'registry.example.com/gardenlet', tag: 'v1' }),
        ),
      ),
    ).toEqual([]);
  });

  const cases: [string, (g: Gardenlet) => void, string[]][] = [
    [
      'name is a DNS label',
      (g) => (g.metadata!.name = 'a.b'),
      [
        "metadata.name: Invalid value: \"a.b\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
      ],
    ],
    [
      'namespace must be garden',
      (g) => (g.metadata!.namespace = 'garden-dev'),
      ['metadata.namespace: Forbidden: namespace must be garden'],
    ],
    [
      'operation must be known',
      (g) => (g.metadata!.annotations = { 'gardener.cloud/operation': 'rotate' }),
      [
        'metadata.annotations[gardener.cloud/operation]: Unsupported value: "rotate": supported values: "force-redeploy", "reconcile", "renew-kubeconfig"',
      ],
    ],
    [
      'replicaCount is non-negative',
      (g) => (g.spec.deployment.replicaCount = -1),
      ['spec.deployment.replicaCount: Invalid value: -1: must be greater than or equal to 0'],
    ],
    [
      'revisionHistoryLimit is non-negative',
      (g) => (g.spec.deployment.revisionHistoryLimit = -2),
      ['spec.deployment.revisionHistoryLimit: Invalid value: -2: must be greater than or equal to 0'],
    ],
    [
      'serviceAccountName is a DNS subdomain',
      (g) => (g.spec.deployment.serviceAccountName = 'Gardenlet'),
      [
        "spec.deployment.serviceAccountName: Invalid value: \"Gardenlet\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
      ],
    ],
    [
      'image repository not empty',
      (g) => (g.spec.deployment.image = { repository: '' }),
      ['spec.deployment.image.repository: Invalid value: "": repository must not be empty if specified'],
    ],
    [
      'image tag not empty',
      (g) => (g.spec.deployment.image = { tag: '' }),
      ['spec.deployment.image.tag: Invalid value: "": tag must not be empty if specified'],
    ],
    [
      'image pull policy known',
      (g) => (g.spec.deployment.image = { pullPolicy: 'Sometimes' }),
      [
        'spec.deployment.image.pullPolicy: Unsupported value: "Sometimes": supported values: "Always", "IfNotPresent", "Never"',
      ],
    ],
    [
      'pod labels are labels',
      (g) => (g.spec.deployment.podLabels = { a: 'not valid!' }),
      [expect.stringMatching(/^spec\.deployment\.podLabels\[a\]: Invalid value: "not valid!": /) as unknown as string],
    ],
    [
      'OCI repository: ref or repository',
      (g) => (g.spec.deployment.helm.ociRepository = {}),
      ['spec.deployment.helm.ociRepository: Required value: must provide either ref or repository'],
    ],
    [
      'OCI repository: ref excludes tag',
      (g) => (g.spec.deployment.helm.ociRepository.tag = 'v1'),
      ['spec.deployment.helm.ociRepository.tag: Forbidden: cannot provide tag when ref is set'],
    ],
    [
      'OCI repository: tag or digest',
      (g) => (g.spec.deployment.helm.ociRepository = { repository: 'registry.example.com/gardenlet' }),
      ['spec.deployment.helm.ociRepository: Required value: must provide either tag or digest'],
    ],
    [
      'config is a GardenletConfiguration',
      (g) => (g.spec.config = { apiVersion: 'v1', kind: 'ConfigMap' }),
      [
        'spec.config: Invalid value: "v1/ConfigMap": expected *gardenletconfigv1alpha1.GardenletConfiguration but got v1/ConfigMap',
      ],
    ],
    [
      'seed name is set by the controller',
      (g) => (config(g).seedConfig.metadata.name = 'local'),
      ['spec.config.seedConfig.metadata.name: Forbidden: seed name is forbidden'],
    ],
    [
      'no kubeconfig with bootstrap',
      (g) => (config(g).gardenClientConnection = { kubeconfig: 'apiVersion: v1' }),
      ['spec.config.gardenClientConnection.kubeconfig: Forbidden: kubeconfig is forbidden if bootstrap is specified'],
    ],
  ];
  for (const [rule, mutate, expected] of cases) {
    it(`rejects: ${rule}`, () => expect(messages(gardenlet(mutate))).toEqual(expected));
  }

  it('accepts known operations and forbids overwriting one on update', () => {
    const op = (o: string) => gardenlet((g) => (g.metadata!.annotations = { 'gardener.cloud/operation': o }));
    expect(messages(op('force-redeploy'))).toEqual([]);
    expect(messages(op('reconcile'), gardenlet())).toEqual([]);
    expect(messages(op('reconcile'), op('renew-kubeconfig'))).toEqual([
      'metadata.annotations[gardener.cloud/operation]: Forbidden: must not overwrite operation "renew-kubeconfig" with "reconcile"',
    ]);
  });
});
