// Test objects in the JSON form Go's encoding/json prints them (omitempty, pointers and non-omitempty zero values as
// Go writes them), for the protobuf decoding tests: they are encoded with the hand-written .proto fixtures and the
// decoded result must equal them.

const T1 = '2025-11-14T22:13:20Z';
const T2 = '2025-11-15T08:00:00Z';
const MT = '2025-11-14T22:13:20.123456Z';

const configMapSource = (uid?: string) => ({
  namespace: 'kube-system',
  name: 'kubelet-config',
  ...(uid ? { uid, resourceVersion: '42' } : {}),
  kubeletConfigKey: 'kubelet',
});

export const NODE = {
  apiVersion: 'v1',
  kind: 'Node',
  metadata: { name: 'node-1', labels: { 'kubernetes.io/hostname': 'node-1', 'topology.kubernetes.io/zone': 'eu-1a' } },
  spec: {
    podCIDR: '10.0.1.0/24',
    podCIDRs: ['10.0.1.0/24', 'fd00:1::/64'],
    providerID: 'aws:///eu-1a/i-0123',
    unschedulable: true,
    taints: [
      { key: 'dedicated', value: 'gpu', effect: 'NoSchedule', timeAdded: T1 },
      { key: 'node.kubernetes.io/unreachable', effect: 'NoExecute' },
    ],
    configSource: { configMap: configMapSource() },
    externalID: 'i-0123',
  },
  status: {
    capacity: { cpu: '4', memory: '16Gi', pods: '110', 'ephemeral-storage': '100Gi' },
    allocatable: { cpu: '3800m', memory: '15Gi', pods: '110' },
    phase: 'Running',
    conditions: [
      {
        type: 'Ready',
        status: 'True',
        lastHeartbeatTime: T2,
        lastTransitionTime: T1,
        reason: 'KubeletReady',
        message: 'kubelet is posting ready status',
      },
      {
        type: 'MemoryPressure',
        status: 'False',
        lastHeartbeatTime: T2,
        lastTransitionTime: T1,
        reason: 'KubeletHasSufficientMemory',
      },
    ],
    addresses: [
      { type: 'InternalIP', address: '10.0.1.5' },
      { type: 'Hostname', address: 'node-1' },
    ],
    daemonEndpoints: { kubeletEndpoint: { Port: 10250 } },
    nodeInfo: {
      machineID: 'ec2a0b',
      systemUUID: 'ec2a0b-uuid',
      bootID: 'boot-1',
      kernelVersion: '6.1.0-18-cloud-amd64',
      osImage: 'Debian GNU/Linux 12 (bookworm)',
      containerRuntimeVersion: 'containerd://1.7.24',
      kubeletVersion: 'v1.35.0',
      kubeProxyVersion: '',
      operatingSystem: 'linux',
      architecture: 'amd64',
      swap: { capacity: 0 },
    },
    images: [
      {
        names: [
          'registry.k8s.io/pause@sha256:ee6521f290b2168b6e0935a181d4cff9be1ac3f505666ef0e3c98fae8199917a',
          'registry.k8s.io/pause:3.10',
        ],
        sizeBytes: 320368,
      },
      { names: ['nginx:1.27'], sizeBytes: 5_000_000_000 },
    ],
    volumesInUse: ['kubernetes.io/csi/ebs.csi.aws.com^vol-1'],
    volumesAttached: [{ name: 'kubernetes.io/csi/ebs.csi.aws.com^vol-1', devicePath: '' }],
    config: {
      assigned: { configMap: configMapSource('u-1') },
      active: { configMap: configMapSource('u-1') },
      lastKnownGood: { configMap: configMapSource('u-0') },
      error: 'failed to load config',
    },
    runtimeHandlers: [
      { name: '', features: { recursiveReadOnlyMounts: true, userNamespaces: false } },
      { name: 'runc', features: { recursiveReadOnlyMounts: false } },
      { name: 'gvisor' },
    ],
    features: { supplementalGroupsPolicy: true, containerUlimits: false },
    declaredFeatures: ['InPlacePodVerticalScaling'],
  },
};

const nodeAffinity = {
  required: {
    nodeSelectorTerms: [
      {
        matchExpressions: [{ key: 'kubernetes.io/hostname', operator: 'In', values: ['node-1'] }],
        matchFields: [{ key: 'metadata.name', operator: 'In', values: ['node-1'] }],
      },
    ],
  },
};

/** Every PersistentVolumeSource at once (the decoder does not validate), each with every field. */
const ALL_PV_SOURCES = {
  gcePersistentDisk: { pdName: 'pd-1', fsType: 'ext4', partition: 1, readOnly: true },
  awsElasticBlockStore: { volumeID: 'vol-1', fsType: 'xfs', partition: 2, readOnly: true },
  hostPath: { path: '/mnt/data', type: 'DirectoryOrCreate' },
  glusterfs: { endpoints: 'glusterfs-cluster', path: 'vol', readOnly: true, endpointsNamespace: 'storage' },
  nfs: { server: 'nfs.example.com', path: '/exports/a', readOnly: true },
  rbd: {
    monitors: ['10.0.0.1:6789', '10.0.0.2:6789'],
    image: 'foo',
    fsType: 'ext4',
    pool: 'kube',
    user: 'admin',
    keyring: '/etc/ceph/keyring',
    secretRef: { name: 'ceph-secret', namespace: 'storage' },
    readOnly: true,
  },
  iscsi: {
    targetPortal: '10.0.2.15:3260',
    iqn: 'iqn.2001-04.com.example:storage.kube.sys1.xyz',
    lun: 0,
    iscsiInterface: 'default',
    fsType: 'ext4',
    readOnly: true,
    portals: ['10.0.2.16:3260'],
    chapAuthDiscovery: true,
    chapAuthSession: true,
    secretRef: { name: 'chap', namespace: 'storage' },
    initiatorName: 'iqn.1994-05.com.redhat:node1',
  },
  cinder: { volumeID: 'c-1', fsType: 'ext4', readOnly: true, secretRef: { name: 'os', namespace: 'storage' } },
  cephfs: {
    monitors: ['10.0.0.1:6789'],
    path: '/volumes/a',
    user: 'admin',
    secretFile: '/etc/ceph/admin.secret',
    secretRef: { name: 'ceph', namespace: 'storage' },
    readOnly: true,
  },
  fc: {
    targetWWNs: ['500a0982991b8dc5'],
    lun: 2,
    fsType: 'ext4',
    readOnly: true,
    wwids: ['3600508b400105e210000900000490000'],
  },
  flocker: { datasetName: 'ds', datasetUUID: 'uuid-1' },
  flexVolume: {
    driver: 'example.com/lvm',
    fsType: 'ext4',
    secretRef: { name: 'flex', namespace: 'storage' },
    readOnly: true,
    options: { size: '1Gi' },
  },
  azureFile: { secretName: 'azure', shareName: 'share', readOnly: true, secretNamespace: 'storage' },
  vsphereVolume: {
    volumePath: '[datastore1] volumes/myDisk',
    fsType: 'ext4',
    storagePolicyName: 'gold',
    storagePolicyID: 'p-1',
  },
  quobyte: {
    registry: 'registry:7861',
    volume: 'testVolume',
    readOnly: true,
    user: 'root',
    group: 'root',
    tenant: 't-1',
  },
  azureDisk: {
    diskName: 'disk',
    diskURI: 'https://example.blob.core.windows.net/vhds/disk.vhd',
    cachingMode: 'ReadWrite',
    fsType: 'ext4',
    readOnly: false,
    kind: 'Managed',
  },
  photonPersistentDisk: { pdID: 'photon-1', fsType: 'ext4' },
  portworxVolume: { volumeID: 'px-1', fsType: 'ext4', readOnly: true },
  scaleIO: {
    gateway: 'https://scaleio:443/api',
    system: 'scaleio',
    secretRef: { name: 'sio', namespace: 'storage' },
    sslEnabled: true,
    protectionDomain: 'pd',
    storagePool: 'sp',
    storageMode: 'ThinProvisioned',
    volumeName: 'vol-1',
    fsType: 'xfs',
    readOnly: true,
  },
  local: { path: '/mnt/disks/ssd1', fsType: 'ext4' },
  storageos: {
    volumeName: 'redis',
    volumeNamespace: 'default',
    fsType: 'ext4',
    readOnly: true,
    secretRef: { kind: 'Secret', namespace: 'storage', name: 'sos' },
  },
  csi: {
    driver: 'ebs.csi.aws.com',
    volumeHandle: 'vol-0abc',
    readOnly: true,
    fsType: 'ext4',
    volumeAttributes: { 'storage.kubernetes.io/csiProvisionerIdentity': '1700000000000-8081-ebs.csi.aws.com' },
    controllerPublishSecretRef: { name: 'a', namespace: 'storage' },
    nodeStageSecretRef: { name: 'b', namespace: 'storage' },
    nodePublishSecretRef: { name: 'c', namespace: 'storage' },
    controllerExpandSecretRef: { name: 'd', namespace: 'storage' },
    nodeExpandSecretRef: { name: 'e', namespace: 'storage' },
  },
};

export const PERSISTENT_VOLUME = {
  apiVersion: 'v1',
  kind: 'PersistentVolume',
  metadata: { name: 'pv-all', labels: { type: 'local' } },
  spec: {
    capacity: { storage: '10Gi' },
    ...ALL_PV_SOURCES,
    accessModes: ['ReadWriteOnce', 'ReadOnlyMany'],
    claimRef: {
      kind: 'PersistentVolumeClaim',
      namespace: 'default',
      name: 'data',
      uid: 'uid-1',
      apiVersion: 'v1',
      resourceVersion: '12',
    },
    persistentVolumeReclaimPolicy: 'Retain',
    storageClassName: 'local-storage',
    mountOptions: ['hard', 'nfsvers=4.1'],
    volumeMode: 'Filesystem',
    nodeAffinity,
    volumeAttributesClassName: 'gold',
  },
  status: { phase: 'Bound', message: 'bound to default/data', reason: 'Bound', lastPhaseTransitionTime: T1 },
};

export const ENDPOINTS = {
  apiVersion: 'v1',
  kind: 'Endpoints',
  metadata: { name: 'web', namespace: 'default', labels: { app: 'web' } },
  subsets: [
    {
      addresses: [
        {
          ip: '10.0.1.10',
          hostname: 'web-0',
          nodeName: 'node-1',
          targetRef: { kind: 'Pod', namespace: 'default', name: 'web-0', uid: 'p-0' },
        },
        { ip: '10.0.1.11' },
      ],
      notReadyAddresses: [{ ip: '10.0.1.12', nodeName: '' }],
      ports: [
        { name: 'http', port: 8080, protocol: 'TCP', appProtocol: 'http' },
        { name: 'dns', port: 0, protocol: 'UDP' },
      ],
    },
  ],
};

export const ENDPOINT_SLICE = {
  apiVersion: 'discovery.k8s.io/v1',
  kind: 'EndpointSlice',
  metadata: { name: 'web-abc12', namespace: 'default', labels: { 'kubernetes.io/service-name': 'web' } },
  addressType: 'IPv4',
  endpoints: [
    {
      addresses: ['10.0.1.10'],
      conditions: { ready: true, serving: true, terminating: false },
      hostname: 'web-0',
      targetRef: { kind: 'Pod', namespace: 'default', name: 'web-0', uid: 'p-0' },
      deprecatedTopology: { 'kubernetes.io/hostname': 'node-1' },
      nodeName: 'node-1',
      zone: 'eu-1a',
      hints: { forZones: [{ name: 'eu-1a' }], forNodes: [{ name: 'node-1' }] },
    },
    { addresses: ['10.0.1.11'], conditions: {} },
  ],
  ports: [
    { name: 'http', protocol: 'TCP', port: 8080, appProtocol: 'kubernetes.io/h2c' },
    { name: '', port: 0 },
  ],
};

export const CORE_EVENT = {
  apiVersion: 'v1',
  kind: 'Event',
  metadata: { name: 'web-0.17f0', namespace: 'default' },
  involvedObject: {
    kind: 'Pod',
    namespace: 'default',
    name: 'web-0',
    uid: 'p-0',
    apiVersion: 'v1',
    resourceVersion: '77',
    fieldPath: 'spec.containers{web}',
  },
  reason: 'Pulled',
  message: 'Successfully pulled image "nginx:1.27"',
  source: { component: 'kubelet', host: 'node-1' },
  firstTimestamp: T1,
  lastTimestamp: T2,
  count: 3,
  type: 'Normal',
  eventTime: MT,
  series: { count: 2, lastObservedTime: '2025-11-15T08:00:00.000001Z' },
  action: 'Pulling',
  related: { kind: 'Node', name: 'node-1', apiVersion: 'v1' },
  reportingComponent: 'kubelet',
  reportingInstance: '',
};

export const EVENTS_EVENT = {
  apiVersion: 'events.k8s.io/v1',
  kind: 'Event',
  metadata: { name: 'web.18a', namespace: 'default' },
  eventTime: MT,
  series: { count: 0, lastObservedTime: '2025-11-15T08:00:00.500000Z' },
  reportingController: 'example.com/controller',
  reportingInstance: 'controller-7d9f',
  action: 'Reconcile',
  reason: 'Synced',
  regarding: { kind: 'Deployment', namespace: 'default', name: 'web', apiVersion: 'apps/v1' },
  related: { kind: 'ReplicaSet', namespace: 'default', name: 'web-7d9f', apiVersion: 'apps/v1' },
  note: 'scaled up to 3',
  type: 'Normal',
  deprecatedSource: { component: 'deployment-controller' },
  deprecatedFirstTimestamp: T1,
  deprecatedLastTimestamp: T2,
  deprecatedCount: 4,
};

export const STORAGE_CLASS = {
  apiVersion: 'storage.k8s.io/v1',
  kind: 'StorageClass',
  metadata: { name: 'fast', annotations: { 'storageclass.kubernetes.io/is-default-class': 'true' } },
  provisioner: 'ebs.csi.aws.com',
  parameters: { type: 'gp3', iops: '3000' },
  reclaimPolicy: 'Retain',
  mountOptions: ['discard'],
  allowVolumeExpansion: false,
  volumeBindingMode: 'WaitForFirstConsumer',
  allowedTopologies: [{ matchLabelExpressions: [{ key: 'topology.kubernetes.io/zone', values: ['eu-1a', 'eu-1b'] }] }],
};

/** A pod with every in-tree volume source in its spec and a full status. */
export const POD = {
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'legacy', namespace: 'default' },
  spec: {
    volumes: [
      { name: 'gce', gcePersistentDisk: { pdName: 'pd-1', fsType: 'ext4', partition: 1, readOnly: true } },
      { name: 'ebs', awsElasticBlockStore: { volumeID: 'vol-1', fsType: 'xfs', partition: 2, readOnly: true } },
      { name: 'iscsi', iscsi: { ...ALL_PV_SOURCES.iscsi, lun: 3, secretRef: { name: 'chap' } } },
      { name: 'gluster', glusterfs: { endpoints: 'glusterfs-cluster', path: 'vol', readOnly: true } },
      { name: 'rbd', rbd: { ...ALL_PV_SOURCES.rbd, secretRef: { name: 'ceph-secret' } } },
      {
        name: 'flex',
        flexVolume: {
          driver: 'example.com/lvm',
          fsType: 'ext4',
          secretRef: { name: 'flex' },
          readOnly: true,
          options: { size: '1Gi' },
        },
      },
      { name: 'cinder', cinder: { volumeID: 'c-1', fsType: 'ext4', readOnly: true, secretRef: { name: 'os' } } },
      { name: 'cephfs', cephfs: { ...ALL_PV_SOURCES.cephfs, secretRef: { name: 'ceph' } } },
      { name: 'flocker', flocker: { datasetName: 'ds', datasetUUID: 'uuid-1' } },
      {
        name: 'fc',
        fc: {
          targetWWNs: ['500a0982991b8dc5'],
          lun: 0,
          fsType: 'ext4',
          readOnly: true,
          wwids: ['3600508b400105e210000900000490000'],
        },
      },
      { name: 'azfile', azureFile: { secretName: 'azure', shareName: 'share', readOnly: true } },
      { name: 'vsphere', vsphereVolume: ALL_PV_SOURCES.vsphereVolume },
      { name: 'quobyte', quobyte: ALL_PV_SOURCES.quobyte },
      { name: 'azdisk', azureDisk: ALL_PV_SOURCES.azureDisk },
      { name: 'photon', photonPersistentDisk: ALL_PV_SOURCES.photonPersistentDisk },
      { name: 'px', portworxVolume: ALL_PV_SOURCES.portworxVolume },
      { name: 'sio', scaleIO: { ...ALL_PV_SOURCES.scaleIO, secretRef: { name: 'sio' } } },
      {
        name: 'sos',
        storageos: {
          volumeName: 'redis',
          volumeNamespace: 'default',
          fsType: 'ext4',
          readOnly: true,
          secretRef: { name: 'sos' },
        },
      },
      { name: 'host', hostPath: { path: '/var/log' } },
      { name: 'nfs', nfs: { server: 'nfs.example.com', path: '/exports/a' } },
    ],
    containers: [{ name: 'app', image: 'nginx:1.27' }],
  },
  status: {
    observedGeneration: 2,
    phase: 'Running',
    conditions: [{ type: 'Ready', status: 'True', lastProbeTime: null, lastTransitionTime: T1 }],
    message: 'running',
    reason: 'Started',
    nominatedNodeName: 'node-2',
    hostIP: '10.0.1.5',
    hostIPs: [{ ip: '10.0.1.5' }, { ip: 'fd00::5' }],
    podIP: '10.0.1.10',
    podIPs: [{ ip: '10.0.1.10' }],
    startTime: T1,
    initContainerStatuses: [
      {
        name: 'init',
        state: {
          terminated: {
            exitCode: 0,
            reason: 'Completed',
            startedAt: T1,
            finishedAt: T2,
            containerID: 'containerd://init',
          },
        },
        lastState: {},
        ready: true,
        restartCount: 0,
        image: 'busybox:1.36',
        imageID: 'docker.io/library/busybox@sha256:1',
        containerID: 'containerd://init',
        started: false,
      },
    ],
    containerStatuses: [
      {
        name: 'app',
        state: { running: { startedAt: T2 } },
        lastState: {
          terminated: {
            exitCode: 137,
            signal: 9,
            reason: 'OOMKilled',
            message: 'killed',
            startedAt: T1,
            finishedAt: T2,
            containerID: 'containerd://old',
          },
        },
        ready: false,
        restartCount: 1,
        image: 'nginx:1.27',
        imageID: '',
        containerID: 'containerd://app',
        started: true,
        allocatedResources: { cpu: '250m', memory: '64Mi' },
        resources: {
          limits: { memory: '128Mi' },
          requests: { cpu: '250m', memory: '64Mi' },
          claims: [{ name: 'gpu', request: 'one' }],
        },
        volumeMounts: [
          { name: 'host', mountPath: '/var/log', readOnly: true, recursiveReadOnly: 'Enabled' },
          {
            name: 'models',
            mountPath: '/models',
            readOnly: true,
            image: { imageRef: 'registry.example/models@sha256:2' },
          },
        ],
        user: { linux: { uid: 0, gid: 1000, supplementalGroups: [1000, 2000] } },
        allocatedResourcesStatus: [
          { name: 'claim:gpu/one', resources: [{ resourceID: 'gpu-0', health: 'Healthy' }, { resourceID: 'gpu-1' }] },
        ],
        stopSignal: 'SIGTERM',
      },
    ],
    qosClass: 'Burstable',
    ephemeralContainerStatuses: [
      {
        name: 'debug',
        state: { waiting: { reason: 'ContainerCreating', message: 'pulling' } },
        lastState: {},
        ready: false,
        restartCount: 0,
        image: 'busybox',
        imageID: '',
      },
    ],
    resize: 'InProgress',
    resourceClaimStatuses: [{ name: 'gpu', resourceClaimName: 'legacy-gpu-x7' }, { name: 'none' }],
    extendedResourceClaimStatus: {
      requestMappings: [
        { containerName: 'app', resourceName: 'example.com/gpu', requestName: 'container-0-request-0' },
      ],
      resourceClaimName: 'legacy-extended-resources-abc',
    },
    allocatedResources: { cpu: '500m' },
    resources: { requests: { cpu: '500m' } },
  },
};
