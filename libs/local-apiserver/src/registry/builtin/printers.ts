// The `kubectl get` columns kube's printers show for the common built-in kinds; others print NAME and AGE.
import type { KubeObject } from '../../storage/types.js';
import type { PrinterColumn } from '../types.js';
import { eventsV1ToCore } from '../../server/conversion/events.js';
import { humanDuration } from './human-duration.js';

export interface Printer {
  columns: PrinterColumn[];
  cells: (o: KubeObject) => unknown[];
}

const col = (name: string, type: PrinterColumn['type'] = 'string', priority = 0): PrinterColumn => ({
  name,
  type,
  priority,
  description: name,
});
const AGE = col('Age');

export const age = (o: KubeObject): string => {
  const t = Date.parse(o.metadata?.creationTimestamp ?? '');
  return Number.isNaN(t) ? '<unknown>' : humanDuration(Date.now() - t);
};

const orNone = (v: unknown) => (v === undefined || v === null || v === '' ? '<none>' : v);
const count = (m: unknown) => (m && typeof m === 'object' ? Object.keys(m).length : 0);

/** kubectl's STATUS of a Pod (kube's printPod): init progress, the last container's waiting or terminated reason, Completed/NotReady, Terminating. */
export function podStatus(o: KubeObject): string {
  const status = o.status ?? {};
  let reason: string = status.reason || status.phase || 'Pending';
  const exitReason = (t: KubeObject, prefix = '') =>
    t.reason ? `${prefix}${t.reason}` : t.signal ? `${prefix}Signal:${t.signal}` : `${prefix}ExitCode:${t.exitCode}`;
  let initializing = false;
  const inits: KubeObject[] = status.initContainerStatuses ?? [];
  for (let i = 0; i < inits.length; i++) {
    const state = inits[i].state ?? {};
    if (state.terminated?.exitCode === 0) continue;
    initializing = true;
    if (state.terminated) reason = exitReason(state.terminated, 'Init:');
    else if (state.waiting?.reason && state.waiting.reason !== 'PodInitializing')
      reason = `Init:${state.waiting.reason}`;
    else reason = `Init:${i}/${(o.spec?.initContainers ?? []).length}`;
    break;
  }
  const conditionTrue = (type: string) =>
    (status.conditions ?? []).some((c: KubeObject) => c.type === type && c.status === 'True');
  if (!initializing || conditionTrue('Initialized')) {
    let hasRunning = false;
    const containers: KubeObject[] = status.containerStatuses ?? [];
    for (let i = containers.length - 1; i >= 0; i--) {
      const { state = {}, ready } = containers[i];
      if (state.waiting?.reason) reason = state.waiting.reason;
      else if (state.terminated) reason = exitReason(state.terminated);
      else if (state.running && ready) hasRunning = true;
    }
    // A pod whose other containers still run is not Completed.
    if (reason === 'Completed' && hasRunning) reason = conditionTrue('Ready') ? 'Running' : 'NotReady';
  }
  if (o.metadata?.deletionTimestamp) return status.reason === 'NodeLost' ? 'Unknown' : 'Terminating';
  return reason;
}

function servicePorts(o: KubeObject): string {
  const ports: KubeObject[] = o.spec?.ports ?? [];
  if (ports.length === 0) return '<none>';
  return ports.map((p) => `${p.port}${p.nodePort ? `:${p.nodePort}` : ''}/${p.protocol ?? 'TCP'}`).join(',');
}

// kube lists at most three endpoints and counts the rest.
function firstThree(items: string[]): string {
  if (items.length === 0) return '<none>';
  return items.slice(0, 3).join(',') + (items.length > 3 ? ` + ${items.length - 3} more...` : '');
}

function endpointsList(o: KubeObject): string {
  const items: string[] = [];
  for (const subset of (o.subsets ?? []) as KubeObject[]) {
    for (const address of (subset.addresses ?? []) as KubeObject[]) {
      const ports: KubeObject[] = subset.ports ?? [];
      if (ports.length === 0) items.push(address.ip);
      for (const port of ports) items.push(`${address.ip}:${port.port}`);
    }
  }
  return firstThree(items);
}

function jobStatus(o: KubeObject): string {
  const conditions: KubeObject[] = o.status?.conditions ?? [];
  const isTrue = (type: string) => conditions.some((c) => c.type === type && c.status === 'True');
  if (isTrue('Complete')) return 'Complete';
  if (isTrue('Failed')) return 'Failed';
  if (isTrue('FailureTarget')) return 'FailureTarget';
  if (isTrue('SuccessCriteriaMet')) return 'SuccessCriteriaMet';
  if (o.spec?.suspend) return 'Suspended';
  return 'Running';
}

function jobDuration(o: KubeObject): string {
  const start = Date.parse(o.status?.startTime ?? '');
  if (Number.isNaN(start)) return '';
  const end = Date.parse(o.status?.completionTime ?? '');
  return humanDuration((Number.isNaN(end) ? Date.now() : end) - start);
}

const since = (time: unknown): string => {
  const t = typeof time === 'string' ? Date.parse(time) : NaN;
  return Number.isNaN(t) ? '<unknown>' : humanDuration(Date.now() - t);
};

/** kube's printEvent, wide columns included (priority 1); events have no leading NAME column, `Name` comes last. */
const EVENT_PRINTER: Printer = {
  columns: [
    col('Last Seen'),
    col('Type'),
    col('Reason'),
    col('Object'),
    col('Subobject', 'string', 1),
    col('Source', 'string', 1),
    col('Message'),
    col('First Seen', 'string', 1),
    col('Count', 'integer', 1),
    { ...col('Name', 'string', 1), format: 'name' },
  ],
  cells: (o) => {
    const involved = o.involvedObject ?? {};
    const first = o.firstTimestamp ? since(o.firstTimestamp) : since(o.eventTime);
    let last = o.lastTimestamp ? since(o.lastTimestamp) : first;
    let count = o.count ?? 0;
    if (o.series) {
      last = since(o.series.lastObservedTime);
      count = o.series.count ?? 0;
    } else if (count === 0) count = 1; // singleton events of the new API have no count
    const kind = String(involved.kind ?? '').toLowerCase();
    const component = o.source?.component || o.reportingComponent || '';
    const instance = o.source?.host || o.reportingInstance || '';
    return [
      last,
      o.type ?? '',
      o.reason ?? '',
      involved.name ? `${kind}/${involved.name}` : kind,
      involved.fieldPath ?? '',
      instance ? `${component}, ${instance}` : component,
      String(o.message ?? '').trim(),
      first,
      count,
      o.metadata?.name ?? '',
    ];
  },
};

export const PRINTERS: Record<string, Printer> = {
  '/pods': {
    columns: [
      col('Ready'),
      col('Status'),
      col('Restarts', 'integer'),
      AGE,
      col('IP', 'string', 1),
      col('Node', 'string', 1),
    ],
    cells: (o) => {
      const statuses: KubeObject[] = o.status?.containerStatuses ?? [];
      const ready = statuses.filter((c) => c.ready).length;
      const restarts = statuses.reduce((n, c) => n + (c.restartCount ?? 0), 0);
      return [
        `${ready}/${(o.spec?.containers ?? []).length}`,
        podStatus(o),
        restarts,
        age(o),
        orNone(o.status?.podIP),
        orNone(o.spec?.nodeName),
      ];
    },
  },
  '/namespaces': { columns: [col('Status'), AGE], cells: (o) => [o.status?.phase ?? 'Active', age(o)] },
  '/configmaps': {
    columns: [col('Data', 'integer'), AGE],
    cells: (o) => [count(o.data) + count(o.binaryData), age(o)],
  },
  '/secrets': {
    columns: [col('Type'), col('Data', 'integer'), AGE],
    cells: (o) => [o.type ?? 'Opaque', count(o.data), age(o)],
  },
  '/serviceaccounts': { columns: [col('Secrets', 'integer'), AGE], cells: (o) => [(o.secrets ?? []).length, age(o)] },
  '/services': {
    columns: [col('Type'), col('Cluster-IP'), col('External-IP'), col('Port(s)'), AGE, col('Selector', 'string', 1)],
    cells: (o) => [
      o.spec?.type ?? 'ClusterIP',
      orNone(o.spec?.clusterIP),
      orNone(
        (o.status?.loadBalancer?.ingress ?? []).map((i: KubeObject) => i.ip ?? i.hostname).join(',') ||
          (o.spec?.externalIPs ?? []).join(','),
      ),
      servicePorts(o),
      age(o),
      orNone(
        Object.entries(o.spec?.selector ?? {})
          .map(([k, v]) => `${k}=${v}`)
          .join(','),
      ),
    ],
  },
  '/nodes': {
    columns: [col('Status'), col('Roles'), AGE, col('Version')],
    cells: (o) => {
      const ready = (o.status?.conditions ?? []).find((c: KubeObject) => c.type === 'Ready');
      const roles = Object.keys(o.metadata?.labels ?? {})
        .filter((l) => l.startsWith('node-role.kubernetes.io/'))
        .map((l) => l.split('/')[1]);
      return [
        ready?.status === 'True' ? 'Ready' : 'NotReady',
        roles.join(',') || '<none>',
        age(o),
        o.status?.nodeInfo?.kubeletVersion ?? '',
      ];
    },
  },
  '/events': EVENT_PRINTER,
  // events.k8s.io/v1 Events are core Events in kube's registry and print alike.
  'events.k8s.io/events': { columns: EVENT_PRINTER.columns, cells: (o) => EVENT_PRINTER.cells(eventsV1ToCore(o)) },
  'apps/deployments': {
    columns: [col('Ready'), col('Up-to-date', 'integer'), col('Available', 'integer'), AGE],
    cells: (o) => [
      `${o.status?.readyReplicas ?? 0}/${o.spec?.replicas ?? 0}`,
      o.status?.updatedReplicas ?? 0,
      o.status?.availableReplicas ?? 0,
      age(o),
    ],
  },
  'apps/statefulsets': {
    columns: [col('Ready'), AGE],
    cells: (o) => [`${o.status?.readyReplicas ?? 0}/${o.spec?.replicas ?? 0}`, age(o)],
  },
  'apps/replicasets': {
    columns: [col('Desired', 'integer'), col('Current', 'integer'), col('Ready', 'integer'), AGE],
    cells: (o) => [o.spec?.replicas ?? 0, o.status?.replicas ?? 0, o.status?.readyReplicas ?? 0, age(o)],
  },
  'apps/daemonsets': {
    columns: [
      col('Desired', 'integer'),
      col('Current', 'integer'),
      col('Ready', 'integer'),
      col('Up-to-date', 'integer'),
      col('Available', 'integer'),
      AGE,
    ],
    cells: (o) => {
      const s = o.status ?? {};
      return [
        s.desiredNumberScheduled ?? 0,
        s.currentNumberScheduled ?? 0,
        s.numberReady ?? 0,
        s.updatedNumberScheduled ?? 0,
        s.numberAvailable ?? 0,
        age(o),
      ];
    },
  },
  '/endpoints': { columns: [col('Endpoints'), AGE], cells: (o) => [endpointsList(o), age(o)] },
  'discovery.k8s.io/endpointslices': {
    columns: [col('AddressType'), col('Ports'), col('Endpoints'), AGE],
    cells: (o) => [
      o.addressType ?? '',
      ((o.ports ?? []) as KubeObject[]).map((p) => p.port ?? '<unset>').join(',') || '<unset>',
      firstThree(((o.endpoints ?? []) as KubeObject[]).flatMap((e) => e.addresses ?? [])),
      age(o),
    ],
  },
  'batch/jobs': {
    columns: [col('Status'), col('Completions'), col('Duration'), AGE],
    cells: (o) => [jobStatus(o), `${o.status?.succeeded ?? 0}/${o.spec?.completions ?? 1}`, jobDuration(o), age(o)],
  },
  'batch/cronjobs': {
    columns: [
      col('Schedule'),
      col('Timezone'),
      col('Suspend', 'boolean'),
      col('Active', 'integer'),
      col('Last Schedule'),
      AGE,
    ],
    cells: (o) => {
      const last = Date.parse(o.status?.lastScheduleTime ?? '');
      return [
        o.spec?.schedule ?? '',
        orNone(o.spec?.timeZone),
        o.spec?.suspend ?? false,
        (o.status?.active ?? []).length,
        Number.isNaN(last) ? '<none>' : humanDuration(Date.now() - last),
        age(o),
      ];
    },
  },
  'coordination.k8s.io/leases': { columns: [col('Holder'), AGE], cells: (o) => [o.spec?.holderIdentity ?? '', age(o)] },
  'apiextensions.k8s.io/customresourcedefinitions': {
    columns: [col('Created At', 'date')],
    cells: (o) => [o.metadata?.creationTimestamp ?? ''],
  },
  'certificates.k8s.io/certificatesigningrequests': {
    columns: [AGE, col('SignerName'), col('Requestor'), col('Condition')],
    cells: (o) => {
      const conditions: KubeObject[] = o.status?.conditions ?? [];
      const condition = conditions.map((c) => c.type).join(',') || 'Pending';
      return [
        age(o),
        o.spec?.signerName ?? '',
        o.spec?.username ?? '',
        o.status?.certificate && condition !== 'Pending' ? `${condition},Issued` : condition,
      ];
    },
  },
};
