// kube's SetDefaults_* for the built-in kinds Gardener and kubectl users see: what `kubectl get -o yaml` shows
// after a create (imagePullPolicy, protocol: TCP, strategy, revisionHistoryLimit, ...).
import type { KubeObject } from '../../storage/types.js';

type Defaulter = (object: KubeObject) => void;

function setIfAbsent(target: KubeObject, key: string, value: unknown): void {
  if (target[key] === undefined || target[key] === null) target[key] = value;
}

function container(c: KubeObject): void {
  setIfAbsent(c, 'terminationMessagePath', '/dev/termination-log');
  setIfAbsent(c, 'terminationMessagePolicy', 'File');
  if (c.imagePullPolicy === undefined) {
    const image = String(c.image ?? '');
    const tagged = /:[^/]+$/.test(image) || image.includes('@');
    c.imagePullPolicy = !tagged || image.endsWith(':latest') ? 'Always' : 'IfNotPresent';
  }
  for (const port of c.ports ?? []) setIfAbsent(port, 'protocol', 'TCP');
  setIfAbsent(c, 'resources', {});
  for (const probe of [c.livenessProbe, c.readinessProbe, c.startupProbe]) {
    if (!probe) continue;
    setIfAbsent(probe, 'timeoutSeconds', 1);
    setIfAbsent(probe, 'periodSeconds', 10);
    setIfAbsent(probe, 'successThreshold', 1);
    setIfAbsent(probe, 'failureThreshold', 3);
    if (probe.httpGet) setIfAbsent(probe.httpGet, 'scheme', 'HTTP');
  }
  for (const e of c.env ?? []) {
    const field = e.valueFrom?.fieldRef;
    if (field) setIfAbsent(field, 'apiVersion', 'v1');
  }
}

export function podSpec(spec: KubeObject | undefined): void {
  if (!spec) return;
  setIfAbsent(spec, 'restartPolicy', 'Always');
  setIfAbsent(spec, 'terminationGracePeriodSeconds', 30);
  setIfAbsent(spec, 'dnsPolicy', 'ClusterFirst');
  setIfAbsent(spec, 'securityContext', {});
  setIfAbsent(spec, 'schedulerName', 'default-scheduler');
  if (spec.serviceAccountName && !spec.serviceAccount) spec.serviceAccount = spec.serviceAccountName;
  for (const c of [...(spec.containers ?? []), ...(spec.initContainers ?? [])]) container(c);
  for (const v of spec.volumes ?? []) {
    for (const source of ['secret', 'configMap']) if (v[source]) setIfAbsent(v[source], 'defaultMode', 0o644);
    if (v.projected) setIfAbsent(v.projected, 'defaultMode', 0o644);
  }
}

const template = (o: KubeObject) => podSpec(o.spec?.template?.spec);

const rollingUpdate = (maxUnavailable: string | number, maxSurge: string | number) => ({
  type: 'RollingUpdate',
  rollingUpdate: { maxUnavailable, maxSurge },
});

export const DEFAULTERS: Record<string, Defaulter> = {
  '/namespaces': (o) => {
    o.metadata.labels = { ...o.metadata.labels, 'kubernetes.io/metadata.name': o.metadata.name };
    o.spec ??= {};
    if (!o.metadata.deletionTimestamp) setIfAbsent(o.spec, 'finalizers', ['kubernetes']);
    o.status ??= {};
    setIfAbsent(o.status, 'phase', 'Active');
  },
  '/pods': (o) => {
    podSpec(o.spec);
    o.status ??= {};
    setIfAbsent(o.status, 'phase', 'Pending');
    setIfAbsent(o.status, 'qosClass', 'BestEffort');
  },
  '/secrets': (o) => setIfAbsent(o, 'type', 'Opaque'),
  '/services': (o) => {
    const spec = (o.spec ??= {});
    setIfAbsent(spec, 'type', 'ClusterIP');
    setIfAbsent(spec, 'sessionAffinity', 'None');
    if (spec.type !== 'ExternalName') {
      setIfAbsent(spec, 'internalTrafficPolicy', 'Cluster');
      setIfAbsent(spec, 'ipFamilyPolicy', 'SingleStack');
      setIfAbsent(spec, 'ipFamilies', ['IPv4']);
    }
    for (const port of spec.ports ?? []) {
      setIfAbsent(port, 'protocol', 'TCP');
      setIfAbsent(port, 'targetPort', port.port);
    }
    o.status ??= { loadBalancer: {} };
  },
  '/replicationcontrollers': (o) => {
    setIfAbsent((o.spec ??= {}), 'replicas', 1);
    template(o);
  },
  '/podtemplates': (o) => podSpec(o.template?.spec),
  'apps/deployments': (o) => {
    const spec = (o.spec ??= {});
    setIfAbsent(spec, 'replicas', 1);
    setIfAbsent(spec, 'strategy', rollingUpdate('25%', '25%'));
    if (spec.strategy.type === 'RollingUpdate')
      spec.strategy.rollingUpdate = { maxUnavailable: '25%', maxSurge: '25%', ...spec.strategy.rollingUpdate };
    setIfAbsent(spec, 'revisionHistoryLimit', 10);
    setIfAbsent(spec, 'progressDeadlineSeconds', 600);
    template(o);
  },
  'apps/statefulsets': (o) => {
    const spec = (o.spec ??= {});
    setIfAbsent(spec, 'replicas', 1);
    setIfAbsent(spec, 'podManagementPolicy', 'OrderedReady');
    setIfAbsent(spec, 'updateStrategy', { type: 'RollingUpdate', rollingUpdate: { partition: 0 } });
    setIfAbsent(spec, 'revisionHistoryLimit', 10);
    setIfAbsent(spec, 'persistentVolumeClaimRetentionPolicy', { whenDeleted: 'Retain', whenScaled: 'Retain' });
    template(o);
  },
  'apps/daemonsets': (o) => {
    const spec = (o.spec ??= {});
    setIfAbsent(spec, 'updateStrategy', rollingUpdate(1, 0));
    setIfAbsent(spec, 'revisionHistoryLimit', 10);
    template(o);
  },
  'apps/replicasets': (o) => {
    setIfAbsent((o.spec ??= {}), 'replicas', 1);
    template(o);
  },
  'batch/jobs': (o) => {
    const spec = (o.spec ??= {});
    setIfAbsent(spec, 'completions', 1);
    setIfAbsent(spec, 'parallelism', 1);
    setIfAbsent(spec, 'backoffLimit', 6);
    setIfAbsent(spec, 'completionMode', 'NonIndexed');
    setIfAbsent(spec, 'suspend', false);
    jobSelector(o);
    template(o);
  },
  'batch/cronjobs': (o) => {
    const spec = (o.spec ??= {});
    setIfAbsent(spec, 'concurrencyPolicy', 'Allow');
    setIfAbsent(spec, 'suspend', false);
    setIfAbsent(spec, 'successfulJobsHistoryLimit', 3);
    setIfAbsent(spec, 'failedJobsHistoryLimit', 1);
    podSpec(spec.jobTemplate?.spec?.template?.spec);
  },
  'rbac.authorization.k8s.io/rolebindings': (o) => subjects(o),
  'rbac.authorization.k8s.io/clusterrolebindings': (o) => subjects(o),
  'apiextensions.k8s.io/customresourcedefinitions': (o) => {
    const spec = (o.spec ??= {});
    setIfAbsent(spec, 'conversion', { strategy: 'None' });
    const names = (spec.names ??= {});
    if (names.kind) {
      setIfAbsent(names, 'singular', String(names.kind).toLowerCase());
      setIfAbsent(names, 'listKind', `${names.kind}List`);
    }
  },
  'admissionregistration.k8s.io/mutatingwebhookconfigurations': (o) => webhooks(o, true),
  'admissionregistration.k8s.io/validatingwebhookconfigurations': (o) => webhooks(o, false),
  'storage.k8s.io/storageclasses': (o) => {
    setIfAbsent(o, 'reclaimPolicy', 'Delete');
    setIfAbsent(o, 'volumeBindingMode', 'Immediate');
  },
};

function subjects(o: KubeObject): void {
  for (const s of o.subjects ?? [])
    if (s.kind === 'User' || s.kind === 'Group') setIfAbsent(s, 'apiGroup', 'rbac.authorization.k8s.io');
}

function webhooks(o: KubeObject, mutating: boolean): void {
  for (const w of o.webhooks ?? []) {
    setIfAbsent(w, 'failurePolicy', 'Fail');
    setIfAbsent(w, 'matchPolicy', 'Equivalent');
    setIfAbsent(w, 'namespaceSelector', {});
    setIfAbsent(w, 'objectSelector', {});
    setIfAbsent(w, 'timeoutSeconds', 10);
    if (mutating) setIfAbsent(w, 'reinvocationPolicy', 'Never');
    if (w.clientConfig?.service) setIfAbsent(w.clientConfig.service, 'port', 443);
    for (const rule of w.rules ?? []) setIfAbsent(rule, 'scope', '*');
  }
}

// A Job without manualSelector selects its Pods by its own uid, as kube's Job strategy generates at creation.
function jobSelector(o: KubeObject): void {
  const spec = o.spec;
  const uid = o.metadata?.uid;
  if (spec.manualSelector === true || spec.selector || !uid) return;
  const name = o.metadata.name;
  spec.selector = { matchLabels: { 'batch.kubernetes.io/controller-uid': uid } };
  const metadata = ((spec.template ??= {}).metadata ??= {});
  metadata.labels = {
    ...metadata.labels,
    'batch.kubernetes.io/controller-uid': uid,
    'batch.kubernetes.io/job-name': name,
    'controller-uid': uid,
    'job-name': name,
  };
}
