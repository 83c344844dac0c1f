// The real kubectl v1.35 against the local API server: its typed generators (`kubectl create deployment|service|job|
// cronjob|role|...`, `kubectl autoscale`) send protobuf bodies. For each command we check three things:
//  - the protobuf body kubectl sent (`-v=10` logs it as a hex dump) decodes to exactly the JSON Go prints for the same
//    object (`--dry-run=client -o json`): every field at its real field number, omitempty and pointers like Go;
//  - the server accepted it;
//  - the stored object (`kubectl get -o json`) has the fields the command set.
// `kubectl create job --from=cronjob/...` copies a CronJob's pod template into a Job sent as protobuf, which covers the
// whole PodSpec on the real wire. `kubectl expose`, `scale` and `run` send JSON and are checked for completeness.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kubectl, runKubectl } from '@gardener-ts/test-support';
import { decodeProtobufObject, isProtobufEnvelope } from '../src/http/protobuf.js';
import { startTestCluster, type TestCluster } from '../src/index.js';

const NS = 'pb';
let cluster: TestCluster;
let k: (args: string[], input?: string) => Promise<string>;

beforeAll(async () => {
  cluster = await startTestCluster();
  k = (args, input) => kubectl(cluster.kubeconfigPath, args, { input });
  await k(['create', 'namespace', NS]);
});
afterAll(async () => cluster?.stop());

const get = async (resource: string, name: string, namespaced = true) =>
  JSON.parse(await k(['get', resource, name, '-o', 'json', ...(namespaced ? ['-n', NS] : [])]));

/** `hex.Dump` lines (`00000000  6b 38 73 00 ...  |k8s.|`) → bytes. */
function parseHexDump(dump: string): Buffer {
  const bytes: string[] = [];
  for (const line of dump.split('\n')) {
    const m = /^\s*[0-9a-f]{8}\s+([0-9a-f ]+?)\s+\|/.exec(line);
    if (m) bytes.push(m[1].replace(/\s+/g, ''));
  }
  return Buffer.from(bytes.join(''), 'hex');
}

interface Sent {
  /** The request bodies kubectl sent as kube protobuf. */
  protobuf: Buffer[];
  /** The Content-Type of every request with a body. */
  contentTypes: string[];
  stdout: string;
}

/** Runs kubectl with `-v=10` (bodies logged in full) and collects the bodies it sent. */
async function run(args: string[], input?: string): Promise<Sent> {
  const result = await runKubectl(cluster.kubeconfigPath, ['-v=10', ...args], { input });
  if (result.code !== 0)
    throw new Error(
      `kubectl ${args.join(' ')} failed (${result.code}):\n${result.stderr.split('\n').slice(-5).join('\n')}`,
    );
  const protobuf = [...result.stderr.matchAll(/"Request Body" body=<\n([\s\S]*?)\n >/g)]
    .map((m) => parseHexDump(m[1]))
    .filter(isProtobufEnvelope);
  const contentTypes = [...result.stderr.matchAll(/-H "Content-Type: ([^"]+)"/g)].map((m) => m[1]);
  return { protobuf, contentTypes, stdout: result.stdout };
}

/**
 * Runs a typed kubectl command for real and checks that its single protobuf body decodes to what Go prints for the
 * same object with `--dry-run=client -o json`. Returns the decoded object.
 */
async function create(args: string[]): Promise<any> {
  const dashes = args.includes('--') ? args.indexOf('--') : args.length;
  const expected = JSON.parse(
    await k([...args.slice(0, dashes), '--dry-run=client', '-o', 'json', ...args.slice(dashes)]),
  );
  const sent = await run(args);
  expect(sent.protobuf, `kubectl ${args.join(' ')} sends one protobuf body`).toHaveLength(1);
  const decoded = decodeProtobufObject(sent.protobuf[0]);
  expect(decoded).toEqual(expected);
  return decoded;
}

/** A pod spec with (nearly) every PodSpec field, in canonical form so that kubectl's round trip keeps it as is. */
const richPodSpec = {
  initContainers: [
    {
      name: 'init',
      image: 'busybox:1.36',
      command: ['sh', '-c', 'true'],
      resources: { requests: { cpu: '10m' } },
      restartPolicy: 'Always',
    },
  ],
  containers: [
    {
      name: 'app',
      image: 'nginx:1.27',
      command: ['nginx'],
      args: ['-g', 'daemon off;'],
      workingDir: '/srv',
      ports: [
        { name: 'http', containerPort: 8080, protocol: 'TCP' },
        { containerPort: 9090, hostPort: 9090, hostIP: '127.0.0.1', protocol: 'UDP' },
      ],
      envFrom: [{ prefix: 'CM_', configMapRef: { name: 'cm', optional: true } }, { secretRef: { name: 'sec' } }],
      env: [
        { name: 'PLAIN', value: 'v' },
        { name: 'FIELD', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.name' } } },
        {
          name: 'RES',
          valueFrom: { resourceFieldRef: { containerName: 'app', resource: 'limits.memory', divisor: '1Mi' } },
        },
        { name: 'CM', valueFrom: { configMapKeyRef: { name: 'cm', key: 'k', optional: false } } },
        { name: 'SEC', valueFrom: { secretKeyRef: { name: 'sec', key: 'password' } } },
      ],
      resources: {
        limits: { cpu: '500m', memory: '128Mi', 'example.com/gpu': '1' },
        requests: { cpu: '250m', memory: '64Mi' },
      },
      resizePolicy: [{ resourceName: 'cpu', restartPolicy: 'NotRequired' }],
      volumeMounts: [
        { name: 'data', mountPath: '/data', subPath: 'sub', readOnly: true, mountPropagation: 'None' },
        { name: 'cfg', mountPath: '/cfg', subPathExpr: '$(POD)' },
      ],
      volumeDevices: [{ name: 'block', devicePath: '/dev/xvda' }],
      livenessProbe: {
        httpGet: { path: '/healthz', port: 'http', scheme: 'HTTPS', httpHeaders: [{ name: 'X-Probe', value: '1' }] },
        initialDelaySeconds: 5,
        timeoutSeconds: 2,
        periodSeconds: 10,
        successThreshold: 1,
        failureThreshold: 4,
        terminationGracePeriodSeconds: 7,
      },
      readinessProbe: { tcpSocket: { port: 8080 }, periodSeconds: 3 },
      startupProbe: { exec: { command: ['cat', '/tmp/ready'] }, failureThreshold: 30 },
      lifecycle: { postStart: { exec: { command: ['echo', 'start'] } }, preStop: { sleep: { seconds: 5 } } },
      terminationMessagePath: '/dev/termination-log',
      terminationMessagePolicy: 'FallbackToLogsOnError',
      imagePullPolicy: 'Always',
      securityContext: {
        capabilities: { add: ['NET_ADMIN'], drop: ['ALL'] },
        privileged: false,
        seLinuxOptions: { level: 's0:c123,c456' },
        runAsUser: 1000,
        runAsGroup: 3000,
        runAsNonRoot: true,
        readOnlyRootFilesystem: true,
        allowPrivilegeEscalation: false,
        seccompProfile: { type: 'RuntimeDefault' },
      },
      stdin: true,
      stdinOnce: true,
      tty: true,
    },
    { name: 'grpc', image: 'grpc:1', livenessProbe: { grpc: { port: 9000, service: 'health' } } },
  ],
  volumes: [
    { name: 'data', persistentVolumeClaim: { claimName: 'pvc', readOnly: true } },
    { name: 'scratch', emptyDir: { medium: 'Memory', sizeLimit: '64Mi' } },
    { name: 'host', hostPath: { path: '/var/log', type: 'Directory' } },
    {
      name: 'cfg',
      configMap: { name: 'cm', items: [{ key: 'k', path: 'k.txt', mode: 256 }], defaultMode: 420, optional: true },
    },
    { name: 'sec', secret: { secretName: 'sec', defaultMode: 384 } },
    {
      name: 'proj',
      projected: {
        defaultMode: 288,
        sources: [
          { serviceAccountToken: { audience: 'vault', expirationSeconds: 3600, path: 'token' } },
          { configMap: { name: 'cm', items: [{ key: 'k', path: 'cm-k' }] } },
          { secret: { name: 'sec', optional: true } },
          {
            downwardAPI: { items: [{ path: 'labels', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.labels' } }] },
          },
        ],
      },
    },
    {
      name: 'down',
      downwardAPI: {
        items: [{ path: 'cpu', resourceFieldRef: { containerName: 'app', resource: 'requests.cpu', divisor: '1m' } }],
        defaultMode: 292,
      },
    },
    {
      name: 'block',
      ephemeral: {
        volumeClaimTemplate: {
          metadata: { labels: { a: 'b' } },
          spec: {
            accessModes: ['ReadWriteOnce'],
            volumeMode: 'Block',
            storageClassName: 'fast',
            resources: { requests: { storage: '1Gi' } },
          },
        },
      },
    },
    { name: 'csi', csi: { driver: 'csi.example.com', readOnly: true, volumeAttributes: { a: 'b' } } },
    { name: 'nfs', nfs: { server: 'nfs.example.com', path: '/exports' } },
  ],
  restartPolicy: 'OnFailure',
  terminationGracePeriodSeconds: 0,
  activeDeadlineSeconds: 600,
  dnsPolicy: 'ClusterFirstWithHostNet',
  nodeSelector: { 'kubernetes.io/os': 'linux' },
  serviceAccountName: 'robot',
  automountServiceAccountToken: false,
  hostNetwork: true,
  hostIPC: true,
  shareProcessNamespace: true,
  securityContext: {
    runAsUser: 0,
    runAsGroup: 0,
    runAsNonRoot: false,
    fsGroup: 2000,
    supplementalGroups: [4000, 5000],
    fsGroupChangePolicy: 'OnRootMismatch',
    sysctls: [{ name: 'net.core.somaxconn', value: '1024' }],
    seccompProfile: { type: 'Localhost', localhostProfile: 'profiles/audit.json' },
    appArmorProfile: { type: 'RuntimeDefault' },
  },
  imagePullSecrets: [{ name: 'regcred' }],
  hostname: 'h',
  subdomain: 's',
  affinity: {
    nodeAffinity: {
      requiredDuringSchedulingIgnoredDuringExecution: {
        nodeSelectorTerms: [
          {
            matchExpressions: [{ key: 'zone', operator: 'In', values: ['a', 'b'] }],
            matchFields: [{ key: 'metadata.name', operator: 'NotIn', values: ['n1'] }],
          },
        ],
      },
      preferredDuringSchedulingIgnoredDuringExecution: [
        { weight: 10, preference: { matchExpressions: [{ key: 'ssd', operator: 'Exists' }] } },
      ],
    },
    podAffinity: {
      requiredDuringSchedulingIgnoredDuringExecution: [
        { labelSelector: { matchLabels: { app: 'db' } }, namespaces: ['db'], topologyKey: 'kubernetes.io/hostname' },
      ],
    },
    podAntiAffinity: {
      preferredDuringSchedulingIgnoredDuringExecution: [
        {
          weight: 50,
          podAffinityTerm: {
            labelSelector: { matchExpressions: [{ key: 'app', operator: 'In', values: ['web'] }] },
            topologyKey: 'topology.kubernetes.io/zone',
            namespaceSelector: {},
            matchLabelKeys: ['pod-template-hash'],
          },
        },
      ],
    },
  },
  schedulerName: 'custom-scheduler',
  tolerations: [
    { key: 'dedicated', operator: 'Equal', value: 'gpu', effect: 'NoSchedule' },
    { operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 0 },
  ],
  hostAliases: [{ ip: '10.0.0.1', hostnames: ['foo.local', 'bar.local'] }],
  priorityClassName: 'high',
  dnsConfig: {
    nameservers: ['1.1.1.1'],
    searches: ['svc.local'],
    options: [{ name: 'ndots', value: '2' }, { name: 'edns0' }],
  },
  readinessGates: [{ conditionType: 'example.com/ready' }],
  runtimeClassName: 'gvisor',
  enableServiceLinks: false,
  preemptionPolicy: 'Never',
  topologySpreadConstraints: [
    {
      maxSkew: 1,
      topologyKey: 'zone',
      whenUnsatisfiable: 'DoNotSchedule',
      labelSelector: { matchLabels: { app: 'web' } },
      minDomains: 2,
      nodeAffinityPolicy: 'Honor',
      nodeTaintsPolicy: 'Ignore',
      matchLabelKeys: ['pod-template-hash'],
    },
  ],
  setHostnameAsFQDN: true,
  os: { name: 'linux' },
  hostUsers: false,
  schedulingGates: [{ name: 'example.com/gate' }],
  resourceClaims: [{ name: 'gpu', resourceClaimTemplateName: 'gpu-template' }],
};

describe('typed kubectl commands (protobuf bodies) against the local API server', () => {
  it('creates deployments', async () => {
    await create(['create', 'deployment', 'web', '-n', NS, '--image=nginx:1.27', '--replicas=3', '--port=8080']);
    const web = await get('deployment', 'web');
    expect(web.metadata.labels).toEqual({ app: 'web' });
    expect(web.spec).toMatchObject({
      replicas: 3,
      selector: { matchLabels: { app: 'web' } },
      template: { metadata: { labels: { app: 'web' } } },
    });
    expect(web.spec.template.spec.containers).toHaveLength(1);
    expect(web.spec.template.spec.containers[0]).toMatchObject({
      name: 'nginx',
      image: 'nginx:1.27',
      ports: [{ containerPort: 8080 }],
    });
    // A zero replica count is a pointer that is set: kept, not defaulted to 1.
    await create(['create', 'deployment', 'idle', '-n', NS, '--image=busybox', '--replicas=0', '--', 'sleep', '3600']);
    const idle = await get('deployment', 'idle');
    expect(idle.spec.replicas).toBe(0);
    expect(idle.spec.template.spec.containers[0]).toMatchObject({ image: 'busybox', command: ['sleep', '3600'] });
  });

  it('creates services of every type', async () => {
    await create(['create', 'service', 'clusterip', 'web', '-n', NS, '--tcp=80:8080', '--tcp=443:https']);
    const web = await get('service', 'web');
    expect(web.spec).toMatchObject({
      type: 'ClusterIP',
      selector: { app: 'web' },
      ports: [
        { name: '80-8080', port: 80, targetPort: 8080, protocol: 'TCP' },
        { name: '443-https', port: 443, targetPort: 'https', protocol: 'TCP' },
      ],
    });
    await create(['create', 'service', 'clusterip', 'headless', '-n', NS, '--clusterip=None']);
    expect((await get('service', 'headless')).spec).toMatchObject({ type: 'ClusterIP', clusterIP: 'None' });
    await create(['create', 'service', 'nodeport', 'np', '-n', NS, '--tcp=80:8080', '--node-port=30080']);
    expect((await get('service', 'np')).spec).toMatchObject({
      type: 'NodePort',
      ports: [{ port: 80, targetPort: 8080, nodePort: 30080 }],
    });
    await create(['create', 'service', 'loadbalancer', 'lb', '-n', NS, '--tcp=443:8443']);
    expect((await get('service', 'lb')).spec).toMatchObject({
      type: 'LoadBalancer',
      ports: [{ port: 443, targetPort: 8443 }],
    });
    await create(['create', 'service', 'externalname', 'ext', '-n', NS, '--external-name=example.com']);
    expect((await get('service', 'ext')).spec).toMatchObject({ type: 'ExternalName', externalName: 'example.com' });
  });

  it('creates jobs and cronjobs', async () => {
    await create(['create', 'job', 'once', '-n', NS, '--image=busybox', '--', 'date']);
    const once = await get('job', 'once');
    expect(once.spec.template.spec).toMatchObject({
      restartPolicy: 'Never',
      containers: [{ name: 'once', image: 'busybox', command: ['date'] }],
    });

    await create([
      'create',
      'cronjob',
      'nightly',
      '-n',
      NS,
      '--image=busybox',
      '--schedule=0 2 * * *',
      '--restart=OnFailure',
      '--',
      'echo',
      'hi',
    ]);
    const nightly = await get('cronjob', 'nightly');
    expect(nightly.spec.schedule).toBe('0 2 * * *');
    expect(nightly.spec.jobTemplate.spec.template.spec).toMatchObject({
      restartPolicy: 'OnFailure',
      containers: [{ name: 'nightly', image: 'busybox', command: ['echo', 'hi'] }],
    });

    await create(['create', 'job', 'nightly-now', '-n', NS, '--from=cronjob/nightly']);
    const now = await get('job', 'nightly-now');
    expect(now.metadata.annotations).toMatchObject({ 'cronjob.kubernetes.io/instantiate': 'manual' });
    expect(now.metadata.ownerReferences).toEqual([
      { apiVersion: 'batch/v1', kind: 'CronJob', name: 'nightly', uid: nightly.metadata.uid, controller: true },
    ]);
    expect(now.spec.template.spec.containers[0]).toMatchObject({ image: 'busybox', command: ['echo', 'hi'] });
  });

  it('carries a complete PodSpec over the wire (create job --from a CronJob with every field)', async () => {
    const cronJob = {
      apiVersion: 'batch/v1',
      kind: 'CronJob',
      metadata: { name: 'rich', namespace: NS },
      spec: {
        schedule: '*/5 * * * *',
        timeZone: 'Etc/UTC',
        startingDeadlineSeconds: 30,
        concurrencyPolicy: 'Forbid',
        suspend: true,
        successfulJobsHistoryLimit: 0,
        failedJobsHistoryLimit: 2,
        jobTemplate: {
          metadata: { labels: { job: 'rich' } },
          spec: {
            parallelism: 2,
            completions: 4,
            activeDeadlineSeconds: 60,
            backoffLimit: 0,
            ttlSecondsAfterFinished: 0,
            completionMode: 'Indexed',
            podFailurePolicy: {
              rules: [
                { action: 'FailJob', onExitCodes: { containerName: 'app', operator: 'In', values: [1, 2] } },
                { action: 'Ignore', onPodConditions: [{ type: 'DisruptionTarget', status: 'True' }] },
              ],
            },
            template: { metadata: { labels: { app: 'rich' }, annotations: { a: 'b' } }, spec: richPodSpec },
          },
        },
      },
    };
    await k(['create', '-f', '-'], JSON.stringify(cronJob));
    const stored = await get('cronjob', 'rich');
    expect(stored.spec.jobTemplate.spec.template.spec).toMatchObject(richPodSpec);

    const job = await create(['create', 'job', 'rich-now', '-n', NS, '--from=cronjob/rich']);
    // Nothing of the fixture was lost on kubectl's side either: the decoded body carries all of it.
    expect(job.spec.template.spec).toMatchObject(richPodSpec);
    expect(job.spec).toMatchObject({
      parallelism: 2,
      completions: 4,
      activeDeadlineSeconds: 60,
      backoffLimit: 0,
      ttlSecondsAfterFinished: 0,
      completionMode: 'Indexed',
    });
    expect(job.spec.podFailurePolicy).toEqual(cronJob.spec.jobTemplate.spec.podFailurePolicy);
    const run = await get('job', 'rich-now');
    expect(run.spec.template.spec).toEqual(stored.spec.jobTemplate.spec.template.spec);
  });

  it('creates roles, cluster roles and their bindings', async () => {
    await create([
      'create',
      'role',
      'reader',
      '-n',
      NS,
      '--verb=get,list',
      '--resource=pods,deployments.apps',
      '--resource-name=a',
    ]);
    expect((await get('role', 'reader')).rules).toEqual([
      { verbs: ['get', 'list'], apiGroups: [''], resources: ['pods'], resourceNames: ['a'] },
      { verbs: ['get', 'list'], apiGroups: ['apps'], resources: ['deployments'], resourceNames: ['a'] },
    ]);
    await create([
      'create',
      'clusterrole',
      'pb-urls',
      '--verb=get',
      '--non-resource-url=/healthz',
      '--non-resource-url=/metrics',
    ]);
    expect((await get('clusterrole', 'pb-urls', false)).rules).toEqual([
      { verbs: ['get'], nonResourceURLs: ['/healthz', '/metrics'] },
    ]);
    await create(['create', 'clusterrole', 'pb-aggregate', '--aggregation-rule=rbac.example.com/aggregate-to-pb=true']);
    expect((await get('clusterrole', 'pb-aggregate', false)).aggregationRule).toEqual({
      clusterRoleSelectors: [{ matchLabels: { 'rbac.example.com/aggregate-to-pb': 'true' } }],
    });

    await create([
      'create',
      'rolebinding',
      'readers',
      '-n',
      NS,
      '--role=reader',
      '--user=alice',
      '--group=devs',
      `--serviceaccount=${NS}:robot`,
    ]);
    const binding = await get('rolebinding', 'readers');
    expect(binding.roleRef).toEqual({ apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'reader' });
    expect(binding.subjects).toEqual([
      { kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'alice' },
      { kind: 'Group', apiGroup: 'rbac.authorization.k8s.io', name: 'devs' },
      { kind: 'ServiceAccount', name: 'robot', namespace: NS },
    ]);
    await create(['create', 'clusterrolebinding', 'pb-urls', '--clusterrole=pb-urls', '--group=devs']);
    const clusterBinding = await get('clusterrolebinding', 'pb-urls', false);
    expect(clusterBinding.roleRef).toEqual({
      apiGroup: 'rbac.authorization.k8s.io',
      kind: 'ClusterRole',
      name: 'pb-urls',
    });
    expect(clusterBinding.subjects).toEqual([{ kind: 'Group', apiGroup: 'rbac.authorization.k8s.io', name: 'devs' }]);
  });

  it('creates pod disruption budgets, priority classes and quotas', async () => {
    await create(['create', 'poddisruptionbudget', 'min', '-n', NS, '--selector=app=web', '--min-available=1']);
    expect((await get('poddisruptionbudget', 'min')).spec).toMatchObject({
      minAvailable: 1,
      selector: { matchLabels: { app: 'web' } },
    });
    await create(['create', 'poddisruptionbudget', 'max', '-n', NS, '--selector=app=web', '--max-unavailable=50%']);
    expect((await get('poddisruptionbudget', 'max')).spec).toMatchObject({ maxUnavailable: '50%' });

    await create([
      'create',
      'priorityclass',
      'pb-high',
      '--value=1000',
      '--description=important',
      '--preemption-policy=Never',
    ]);
    expect(await get('priorityclass', 'pb-high', false)).toMatchObject({
      value: 1000,
      description: 'important',
      preemptionPolicy: 'Never',
    });
    await create(['create', 'priorityclass', 'pb-zero', '--value=0']);
    expect((await get('priorityclass', 'pb-zero', false)).value).toBe(0);

    await create(['create', 'quota', 'compute', '-n', NS, '--hard=cpu=1,memory=1Gi,pods=2']);
    expect((await get('resourcequota', 'compute')).spec.hard).toEqual({ cpu: '1', memory: '1Gi', pods: '2' });
    await create(['create', 'quota', 'best-effort', '-n', NS, '--hard=pods=5', '--scopes=BestEffort']);
    expect((await get('resourcequota', 'best-effort')).spec).toEqual({ hard: { pods: '5' }, scopes: ['BestEffort'] });
  });

  it('creates ingresses', async () => {
    await create([
      'create',
      'ingress',
      'web',
      '-n',
      NS,
      '--class=nginx',
      '--rule=foo.com/bar*=web:80,tls=web-tls',
      '--rule=/exact=web:https',
      '--default-backend=web:http',
      '--annotation=example.com/a=b',
    ]);
    const ingress = await get('ingress', 'web');
    expect(ingress.metadata.annotations).toMatchObject({ 'example.com/a': 'b' });
    expect(ingress.spec).toEqual({
      ingressClassName: 'nginx',
      defaultBackend: { service: { name: 'web', port: { name: 'http' } } },
      tls: [{ hosts: ['foo.com'], secretName: 'web-tls' }],
      rules: [
        {
          host: 'foo.com',
          http: {
            paths: [{ path: '/bar', pathType: 'Prefix', backend: { service: { name: 'web', port: { number: 80 } } } }],
          },
        },
        {
          http: {
            paths: [
              { path: '/exact', pathType: 'Exact', backend: { service: { name: 'web', port: { name: 'https' } } } },
            ],
          },
        },
      ],
    });
  });

  it('autoscales with an autoscaling/v2 HorizontalPodAutoscaler', async () => {
    const sent = await run(['autoscale', 'deployment', 'web', '-n', NS, '--min=2', '--max=5', '--cpu-percent=60']);
    expect(sent.protobuf).toHaveLength(1);
    expect(decodeProtobufObject(sent.protobuf[0])).toMatchObject({
      apiVersion: 'autoscaling/v2',
      kind: 'HorizontalPodAutoscaler',
    });
    const hpa = JSON.parse(await k(['get', 'horizontalpodautoscalers.v2.autoscaling', 'web', '-n', NS, '-o', 'json']));
    expect(hpa.spec).toEqual({
      scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' },
      minReplicas: 2,
      maxReplicas: 5,
      metrics: [
        { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 60 } } },
      ],
    });
  });

  it('exposes, scales and runs with JSON bodies', async () => {
    const expose = await run([
      'expose',
      'deployment',
      'web',
      '-n',
      NS,
      '--name=web-exposed',
      '--port=80',
      '--target-port=8080',
    ]);
    expect(expose.protobuf).toEqual([]);
    expect((await get('service', 'web-exposed')).spec).toMatchObject({
      selector: { app: 'web' },
      ports: [{ port: 80, targetPort: 8080, protocol: 'TCP' }],
    });

    const scale = await run(['scale', 'deployment', 'web', '-n', NS, '--replicas=5']);
    expect(scale.protobuf).toEqual([]);
    expect(scale.contentTypes).toContain('application/merge-patch+json');
    expect((await get('deployment', 'web')).spec.replicas).toBe(5);

    const pod = await run(['run', 'one', '-n', NS, '--image=busybox', '--labels=app=one', '--', 'sleep', '1']);
    expect(pod.protobuf).toEqual([]);
    expect((await get('pod', 'one')).spec.containers[0]).toMatchObject({ image: 'busybox', args: ['sleep', '1'] });
  });
});
