// Field selector labels of built-in resources besides metadata.name and metadata.namespace (kube's
// AddFieldLabelConversionFuncs per group-version), each mapped to the path it selects in the stored object.
// events.k8s.io/v1 Events are stored as core/v1 Events, so their labels select core fields: `regarding.name` is the
// stored `involvedObject.name`, `reportingController` the stored `reportingComponent` (kube's
// pkg/apis/events/v1 field label conversion); `source` selects `source.component` through both APIs, as kube's
// ToSelectableFields does.

const same = (...labels: string[]) => Object.fromEntries(labels.map((l) => [l, l]));

const INVOLVED = ['kind', 'namespace', 'name', 'uid', 'apiVersion', 'resourceVersion', 'fieldPath'];

export const FIELD_LABELS: Record<string, Record<string, string>> = {
  '/pods': same(
    'spec.nodeName',
    'spec.restartPolicy',
    'spec.schedulerName',
    'spec.serviceAccountName',
    'spec.hostNetwork',
    'status.phase',
    'status.podIP',
    'status.nominatedNodeName',
  ),
  '/secrets': same('type'),
  '/namespaces': same('status.phase'),
  '/nodes': same('spec.unschedulable'),
  '/replicationcontrollers': same('status.replicas'),
  'apps/replicasets': same('status.replicas'),
  'batch/jobs': same('status.successful'),
  'certificates.k8s.io/certificatesigningrequests': same('spec.signerName'),
  '/events': {
    ...same(...INVOLVED.map((f) => `involvedObject.${f}`), 'reason', 'reportingComponent', 'type'),
    source: 'source.component',
  },
  'events.k8s.io/events': {
    ...Object.fromEntries(INVOLVED.map((f) => [`regarding.${f}`, `involvedObject.${f}`])),
    ...same('reason', 'type'),
    reportingController: 'reportingComponent',
    source: 'source.component',
  },
};
