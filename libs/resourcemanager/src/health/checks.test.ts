import { describe, expect, it } from 'vitest';
import { checkHealth, checkProgressing } from './checks.js';

const deployment = (status: object, generation = 1, annotations?: Record<string, string>) => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'd', generation, annotations },
  spec: { replicas: 2 },
  status,
});
const cond = (type: string, status: string, reason = 'R', message = 'M') => ({ type, status, reason, message });

describe('checkHealth', () => {
  it('Deployment: generation, Available required, Progressing optional True, ReplicaFailure optional False', () => {
    expect(checkHealth(deployment({ observedGeneration: 0 })).error).toBe('observed generation outdated (0/1)');
    expect(checkHealth(deployment({ observedGeneration: 1 })).error).toBe('condition "Available" is missing');
    expect(
      checkHealth(
        deployment({
          observedGeneration: 1,
          conditions: [cond('Available', 'False', 'MinimumReplicasUnavailable', 'too few')],
        }),
      ).error,
    ).toBe('condition "Available" has invalid status False (expected True) due to MinimumReplicasUnavailable: too few');
    expect(
      checkHealth(
        deployment({ observedGeneration: 1, conditions: [cond('Available', 'True'), cond('ReplicaFailure', 'True')] }),
      ).error,
    ).toContain('"ReplicaFailure"');
    expect(
      checkHealth(
        deployment({ observedGeneration: 1, conditions: [cond('Available', 'True'), cond('Progressing', 'True')] }),
      ),
    ).toEqual({ checked: true, error: undefined });
  });

  it('StatefulSet: ready replicas', () => {
    const sts = {
      apiVersion: 'apps/v1',
      kind: 'StatefulSet',
      metadata: { generation: 1 },
      spec: { replicas: 3 },
      status: { observedGeneration: 1, readyReplicas: 2 },
    };
    expect(checkHealth(sts).error).toBe('not enough ready replicas (2/3)');
    expect(checkHealth({ ...sts, status: { observedGeneration: 1, readyReplicas: 3 } }).error).toBeUndefined();
  });

  it('DaemonSet: scheduled, misscheduled, unavailable with maxUnavailable during rollout', () => {
    const ds = (status: object, maxUnavailable: number | string = 1) => ({
      apiVersion: 'apps/v1',
      kind: 'DaemonSet',
      metadata: { generation: 1 },
      spec: { updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable } } },
      status: {
        observedGeneration: 1,
        desiredNumberScheduled: 4,
        currentNumberScheduled: 4,
        updatedNumberScheduled: 4,
        ...status,
      },
    });
    expect(checkHealth(ds({ currentNumberScheduled: 3 })).error).toBe('not enough scheduled pods (3/4)');
    expect(checkHealth(ds({ numberMisscheduled: 1 })).error).toBe('misscheduled pods found (1)');
    expect(checkHealth(ds({ numberUnavailable: 1 })).error).toBe('too many unavailable pods found (1/4)');
    expect(checkHealth(ds({ updatedNumberScheduled: 2, numberUnavailable: 1 })).error).toBeUndefined();
    expect(checkHealth(ds({ updatedNumberScheduled: 2, numberUnavailable: 2 }, '25%')).error).toBe(
      'too many unavailable pods found (2/4, only max. 1 unavailable pods allowed)',
    );
  });

  it('ReplicaSet, Pod, Job, Service, CRD', () => {
    expect(
      checkHealth({ apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: {}, spec: { replicas: 1 }, status: {} }).error,
    ).toBe('ReplicaSet does not have minimum availability');
    expect(checkHealth({ apiVersion: 'v1', kind: 'Pod', status: { phase: 'Pending' } }).error).toBe(
      'pod is in invalid phase "Pending" (expected one of ["Running" "Succeeded"])',
    );
    expect(checkHealth({ apiVersion: 'v1', kind: 'Pod', status: { phase: 'Succeeded' } }).error).toBeUndefined();
    expect(
      checkHealth({
        apiVersion: 'batch/v1',
        kind: 'Job',
        status: { conditions: [cond('Failed', 'True', 'BackoffLimitExceeded', 'x')] },
      }).error,
    ).toContain('"Failed" has invalid status True');
    expect(checkHealth({ apiVersion: 'v1', kind: 'Service', spec: { type: 'LoadBalancer' }, status: {} }).error).toBe(
      'service is missing ingress status',
    );
    expect(checkHealth({ apiVersion: 'v1', kind: 'Service', spec: { type: 'ClusterIP' } }).error).toBeUndefined();
    const crd = {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      status: { conditions: [cond('NamesAccepted', 'True')] },
    };
    expect(checkHealth(crd).error).toBe('condition "Established" is missing');
    expect(
      checkHealth({ ...crd, status: { conditions: [cond('NamesAccepted', 'True'), cond('Established', 'True')] } })
        .error,
    ).toBeUndefined();
  });

  it('kinds without a check and skip-health-check are not checked', () => {
    expect(checkHealth({ apiVersion: 'v1', kind: 'ConfigMap' })).toEqual({ checked: false });
    expect(checkHealth(deployment({}, 1, { 'resources.gardener.cloud/skip-health-check': 'true' }))).toEqual({
      checked: false,
    });
  });
});

describe('checkProgressing', () => {
  it('Deployment is rolled out only with Progressing=True/NewReplicaSetAvailable', () => {
    expect(
      checkProgressing(
        deployment({
          observedGeneration: 1,
          conditions: [cond('Progressing', 'True', 'ReplicaSetUpdated', 'rolling')],
        }),
      ),
    ).toEqual({ progressing: true, description: 'rolling' });
    expect(
      checkProgressing(
        deployment({ observedGeneration: 1, conditions: [cond('Progressing', 'True', 'NewReplicaSetAvailable')] }),
      ).progressing,
    ).toBe(false);
    expect(
      checkProgressing(
        deployment({ observedGeneration: 1, conditions: [cond('Progressing', 'True', 'ReplicaSetUpdated')] }, 1, {
          'resources.gardener.cloud/skip-health-check': 'true',
        }),
      ).progressing,
    ).toBe(false);
  });
  it('StatefulSet and DaemonSet count updated replicas', () => {
    expect(
      checkProgressing({
        apiVersion: 'apps/v1',
        kind: 'StatefulSet',
        metadata: {},
        spec: { replicas: 3 },
        status: { updatedReplicas: 1 },
      }),
    ).toEqual({ progressing: true, description: '1 of 3 replica(s) have been updated' });
    expect(
      checkProgressing({
        apiVersion: 'apps/v1',
        kind: 'DaemonSet',
        metadata: {},
        status: { desiredNumberScheduled: 2, updatedNumberScheduled: 2 },
      }).progressing,
    ).toBe(false);
  });
});
