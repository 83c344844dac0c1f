// The Node object this kubelet registers and the status it reports.
import os from 'node:os';
import type { Pressure } from './machine.js';
import { bootId, goArch, machineId } from './machine.js';
import { HOST_IP } from '../pods/field-path.js';

export interface NodeFacts {
  nodeName: string;
  labels: Record<string, string>;
  capacity: Record<string, string>;
  port: number;
  kubeletVersion: string;
  podCIDR?: string;
  /** Taints of the Node at registration (kube's registerWithTaints). */
  taints?: { key: string; value?: string; effect: string }[];
}

export function nodeLabels(nodeName: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    'kubernetes.io/hostname': nodeName,
    'kubernetes.io/os': process.platform === 'win32' ? 'windows' : process.platform,
    'kubernetes.io/arch': goArch(),
    'beta.kubernetes.io/os': process.platform,
    'beta.kubernetes.io/arch': goArch(),
    'node.kubernetes.io/instance-type': 'local',
    ...extra,
  };
}

/** The Node's status.addresses (its serving certificate names exactly these). */
export function nodeAddresses(nodeName: string): { type: string; address: string }[] {
  return [
    { type: 'InternalIP', address: HOST_IP },
    { type: 'Hostname', address: nodeName },
  ];
}

export function nodeObject(facts: NodeFacts): Record<string, unknown> {
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name: facts.nodeName, labels: facts.labels },
    spec: {
      ...(facts.podCIDR ? { podCIDR: facts.podCIDR, podCIDRs: [facts.podCIDR] } : {}),
      ...(facts.taints?.length ? { taints: facts.taints } : {}),
    },
  };
}

interface Condition {
  type: string;
  status: 'True' | 'False';
  reason: string;
  message: string;
}

function conditions(p: Pressure): Condition[] {
  return [
    p.memory
      ? {
          type: 'MemoryPressure',
          status: 'True',
          reason: 'KubeletHasInsufficientMemory',
          message: 'kubelet has insufficient memory available',
        }
      : {
          type: 'MemoryPressure',
          status: 'False',
          reason: 'KubeletHasSufficientMemory',
          message: 'kubelet has sufficient memory available',
        },
    p.disk
      ? { type: 'DiskPressure', status: 'True', reason: 'KubeletHasDiskPressure', message: 'kubelet has disk pressure' }
      : {
          type: 'DiskPressure',
          status: 'False',
          reason: 'KubeletHasNoDiskPressure',
          message: 'kubelet has no disk pressure',
        },
    p.pid
      ? {
          type: 'PIDPressure',
          status: 'True',
          reason: 'KubeletHasInsufficientPID',
          message: 'kubelet has insufficient PID available',
        }
      : {
          type: 'PIDPressure',
          status: 'False',
          reason: 'KubeletHasSufficientPID',
          message: 'kubelet has sufficient PID available',
        },
    { type: 'Ready', status: 'True', reason: 'KubeletReady', message: 'kubelet is posting ready status' },
  ];
}

export class NodeStatusBuilder {
  private readonly transitions = new Map<string, { status: string; time: string }>();

  build(facts: NodeFacts, p: Pressure, now = new Date()): Record<string, unknown> {
    const time = now.toISOString().replace(/\.\d{3}Z$/, 'Z');
    return {
      capacity: facts.capacity,
      allocatable: facts.capacity,
      conditions: conditions(p).map((c) => {
        const known = this.transitions.get(c.type);
        if (!known || known.status !== c.status) this.transitions.set(c.type, { status: c.status, time });
        return { ...c, lastHeartbeatTime: time, lastTransitionTime: this.transitions.get(c.type)!.time };
      }),
      addresses: nodeAddresses(facts.nodeName),
      daemonEndpoints: { kubeletEndpoint: { Port: facts.port } },
      nodeInfo: {
        machineID: machineId(),
        systemUUID: machineId(),
        bootID: bootId(),
        kernelVersion: os.release(),
        osImage: os.version(),
        containerRuntimeVersion: `local://${process.version}`,
        kubeletVersion: facts.kubeletVersion,
        kubeProxyVersion: '',
        operatingSystem: process.platform,
        architecture: goArch(),
      },
    };
  }
}
