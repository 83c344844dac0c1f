import { describe, expect, it } from 'vitest';
import { example, request } from '../../test/examples.js';
import type { KubeObject } from '../attributes.js';
import { runValidating } from '../chain.js';
import { staticListers } from '../listers.js';
import { admitAuditPolicy, AuditPolicyValidator } from './audit-policy.js';
import { defaultPlugins } from './index.js';

// What `kubectl create configmap audit-policy -n garden-local --from-file=policy=policy.yaml` stores.
const policy = `apiVersion: audit.k8s.io/v1
kind: Policy
omitStages:
  - "RequestReceived"
rules:
  - level: RequestResponse
    resources:
    - group: ""
      resources: ["pods"]
  - level: Metadata
    resources:
    - group: ""
      resources: ["pods/log", "pods/status"]
  - level: None
    nonResourceURLs: ["/healthz*", "/version"]
`;

const configMap = (data: Record<string, string> | undefined): KubeObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: 'audit-policy', namespace: 'garden-local' },
  ...(data ? { data } : {}),
});

/** Gardener's example Shoot with the audit policy reference. */
function shootWithAuditPolicy(name = 'audit-policy'): KubeObject {
  const shoot = example('local/shoot.yaml');
  shoot.spec.kubernetes.kubeAPIServer = { auditConfig: { auditPolicy: { configMapRef: { name } } } };
  return shoot;
}

const validate = (a: Parameters<typeof runValidating>[1], objects: KubeObject[]) =>
  runValidating([AuditPolicyValidator], a, staticListers(objects));

describe('AuditPolicyValidator on Shoots', () => {
  it('admits a Shoot whose referenced ConfigMap holds a valid policy', async () => {
    const result = await validate(request('CREATE', shootWithAuditPolicy()), [configMap({ policy })]);
    expect(result.allowed).toBe(true);
  });

  it('refuses a Shoot whose referenced ConfigMap does not exist (422)', async () => {
    const result = await validate(request('CREATE', shootWithAuditPolicy()), []);
    expect(result).toMatchObject({
      allowed: false,
      code: 422,
      message:
        'referenced audit policy ConfigMap garden-local/audit-policy does not exist: configmaps "audit-policy" not found',
    });
  });

  it('refuses a Shoot whose ConfigMap has no policy key, or an empty one', async () => {
    const missing = await validate(request('CREATE', shootWithAuditPolicy()), [configMap({ 'policy.yaml': policy })]);
    expect(!missing.allowed && missing.message).toBe(
      'error getting audit policy from ConfigMap garden-local/audit-policy: missing audit policy key in policy ConfigMap data',
    );
    const empty = await validate(request('CREATE', shootWithAuditPolicy()), [configMap({ policy: '' })]);
    expect(!empty.allowed && empty.message).toBe(
      'error getting audit policy from ConfigMap garden-local/audit-policy: audit policy in policy key is empty',
    );
  });

  it('lets label and annotation changes through even when the ConfigMap is gone, but checks a version change', async () => {
    const old = shootWithAuditPolicy();
    const labelled = structuredClone(old);
    labelled.metadata!.labels = { team: 'a' };
    expect((await validate(request('UPDATE', labelled, old), [])).allowed).toBe(true);
    const otherSpec = structuredClone(old);
    otherSpec.spec.hibernation = { enabled: true };
    expect((await validate(request('UPDATE', otherSpec, old), [])).allowed).toBe(true);
    const upgraded = structuredClone(old);
    upgraded.spec.kubernetes.version = '1.36.1';
    expect((await validate(request('UPDATE', upgraded, old), [])).allowed).toBe(false);
  });

  it('ignores Shoots in deletion and Shoots without a reference', async () => {
    const deleting = shootWithAuditPolicy();
    deleting.metadata!.deletionTimestamp = '2026-01-01T00:00:00Z';
    expect((await validate(request('UPDATE', deleting, shootWithAuditPolicy('other')), [])).allowed).toBe(true);
    expect((await validate(request('CREATE', example('local/shoot.yaml')), [])).allowed).toBe(true);
  });

  it('is part of the default chain', () => {
    expect(defaultPlugins).toContain(AuditPolicyValidator);
  });
});

describe('AuditPolicyValidator on ConfigMaps', () => {
  const shoot = shootWithAuditPolicy();
  const update = (data: Record<string, string>, oldData: Record<string, string> = { policy }) =>
    request('UPDATE', configMap(data), configMap(oldData));

  it('refuses updating a referenced ConfigMap to an invalid policy, with kube field errors', async () => {
    const invalid = `apiVersion: audit.k8s.io/v1
kind: Policy
rules:
  - level: Everything
  - nonResourceURLs: ["healthz", "/api/*/x"]
    level: None
    namespaces: [default]
  - level: Metadata
    omitStages: [Done]
`;
    const result = await validate(update({ policy: invalid }), [shoot]);
    expect(result).toMatchObject({
      allowed: false,
      code: 422,
      message:
        'provided invalid audit policy: [rules[0].level: Unsupported value: "Everything": supported values: "None", "Metadata", "Request", "RequestResponse" ' +
        `rules[1].nonResourceURLs[0]: Invalid value: "healthz": non-resource URL rules must begin with a '/' character ` +
        `rules[1].nonResourceURLs[1]: Invalid value: "/api/*/x": non-resource URL wildcards '*' must be the final character of the rule ` +
        'rules[1].nonResourceURLs: Invalid value: ["healthz","/api/*/x"]: rules cannot apply to both regular resources and non-resource URLs ' +
        'rules[2].omitStages[0]: Invalid value: "Done": allowed stages are RequestReceived,ResponseStarted,ResponseComplete,Panic]',
    });
  });

  it('refuses policies the decoder cannot read: old versions, missing kind, wrong types', async () => {
    const v1beta1 = await validate(update({ policy: policy.replace('audit.k8s.io/v1', 'audit.k8s.io/v1beta1') }), [
      shoot,
    ]);
    expect(!v1beta1.allowed && v1beta1.message).toBe(
      'failed to decode the provided audit policy: no kind "Policy" is registered for version "audit.k8s.io/v1beta1"',
    );
    expect(admitAuditPolicy('apiVersion: audit.k8s.io/v1\nrules: []\n')?.message).toBe(
      "failed to decode the provided audit policy: Object 'Kind' is missing in 'apiVersion: audit.k8s.io/v1\nrules: []\n'",
    );
    expect(admitAuditPolicy('apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n- level: 1\n')?.message).toBe(
      'failed to decode the provided audit policy: json: cannot unmarshal number into Go struct field PolicyRule.rules.level of type v1.Level',
    );
    expect(admitAuditPolicy('apiVersion: audit.k8s.io/v1\nkind: Event\n')).toEqual({
      code: 500,
      message: 'failed to cast to audit policy type: audit.k8s.io/v1, Kind=Event',
    });
  });

  it('refuses removing the policy key of a referenced ConfigMap', async () => {
    const result = await validate(update({ other: 'x' }), [shoot]);
    expect(!result.allowed && result.message).toBe(
      'error getting audit policy from ConfigMap garden-local/audit-policy: missing audit policy key in policy ConfigMap data',
    );
  });

  it('allows any change of a ConfigMap no Shoot of its namespace references, and unchanged policies', async () => {
    const elsewhere = { ...shoot, metadata: { ...shoot.metadata, namespace: 'garden-other' } };
    expect((await validate(update({ policy: 'nonsense' }), [elsewhere])).allowed).toBe(true);
    // An invalid policy stored before the validator existed does not block other changes of the ConfigMap.
    expect((await validate(update({ policy: 'nonsense', x: 'y' }, { policy: 'nonsense' }), [shoot])).allowed).toBe(
      true,
    );
    expect(admitAuditPolicy(policy)).toBeUndefined();
  });

  it('lets a valid update of a referenced ConfigMap through the whole chain', async () => {
    const changed = policy.replace('level: Metadata', 'level: Request');
    const result = await runValidating(defaultPlugins, update({ policy: changed }), staticListers([shoot]));
    expect(result.allowed).toBe(true);
  });

  it('does not look at ConfigMap creations or deletions', () => {
    expect(AuditPolicyValidator.handles(request('CREATE', configMap({ policy: 'x' })))).toBe(false);
    expect(AuditPolicyValidator.handles(request('DELETE', undefined, configMap({ policy })))).toBe(false);
  });
});
