// ShootResourceReservation (gardener-apiserver plugin/pkg/shoot/resourcereservation): the kubelet's `kubeReserved`
// of Shoots with workers. By default (and for Shoots the configured selector does not match, or that set
// `spec.kubernetes.kubelet.kubeReserved` themselves) the missing ones of Gardener's static reservation — 80m CPU,
// 1Gi memory, 20k PIDs — go into `spec.kubernetes.kubelet.kubeReserved`; with `useGKEFormula` every worker pool gets
// a reservation computed from its machine type's CPU and memory (GKE's formula) in its own kubelet config.
import {
  FieldPath,
  invalid,
  labelSelectorMatches,
  Quantity,
  quantityMilliValue,
  quantityValue,
  type corev1beta1,
  type FieldError,
  type LabelSelectorObject,
  type Shoot,
} from '@gardener-ts/api';
import { allow, CORE, internalError, invalidObject, isKind, mutated, type KubeObject } from '../attributes.js';
import type { AdmissionPlugin } from '../chain.js';
import { cloudProfileSpecFor } from './shoot-validator.js';

/** The plugin's configuration (`shootresourcereservation.admission.gardener.cloud/v1alpha1` Configuration). */
export interface ShootResourceReservationConfiguration {
  /** Compute reservations from the machine types' CPU and memory. */
  useGKEFormula?: boolean;
  /** The Shoots (by label) the formula applies to; empty (the default) matches every Shoot. */
  selector?: LabelSelectorObject;
}

type Quantityish = string | number;
type Reserved = { cpu?: Quantityish; memory?: Quantityish; pid?: Quantityish; ephemeralStorage?: Quantityish };

const KiB = 1024;
const MiB = 1024 * KiB;
const GiB = 1024 * MiB;
const div = (a: number, b: number) => Math.floor(a / b);

/** The static reservation of Shoots without the formula. */
export const StaticKubeReserved = { cpu: '80m', memory: '1Gi', pid: '20k' } as const;
const PID_RESERVATION = '20k';

/** Millicores reserved for a machine of `cpuMilli` millicores: 6% of the first core, 1% of the second, 0.5% of cores 3–4, 0.25% of the rest. */
export function calculateCPUReservation(cpuMilli: number): number {
  let reservation = 0;
  if (cpuMilli > 0) reservation += 60;
  if (cpuMilli > 1000) reservation += 10;
  if (cpuMilli > 2000) reservation += (Math.min(div(cpuMilli, 1000), 4) - 2) * 5;
  if (cpuMilli > 4000) reservation += div((div(cpuMilli, 1000) - 4) * 5, 2);
  return reservation;
}

/**
 * Bytes reserved for a machine of `memory` bytes: 255Mi below 1Gi, else 25% of the first 4Gi, 20% of the next 4Gi,
 * 10% of the next 8Gi, 6% of the next 112Gi and 2% above 128Gi (Go's integer arithmetic).
 */
export function calculateMemoryReservation(memory: number): number {
  let reservation = 0;
  if (memory < GiB) reservation = 255 * MiB;
  if (memory >= GiB) reservation += div(Math.min(memory, 4 * GiB), 4);
  if (memory >= 4 * GiB) reservation += div(Math.min(memory, 8 * GiB) - 4 * GiB, 5);
  if (memory >= 8 * GiB) reservation += div(Math.min(memory, 16 * GiB) - 8 * GiB, 10);
  if (memory >= 16 * GiB) reservation += div(Math.min(memory, 128 * GiB) - 16 * GiB, 100) * 6;
  if (memory >= 128 * GiB) reservation += div(memory - 128 * GiB, 100) * 2;
  return reservation;
}

/** The reservation for a machine type, as the quantities Gardener writes (binary SI). */
export function reservationForMachineType(machineType: corev1beta1.CloudProfileSpec['machineTypes'][number]): Reserved {
  return {
    cpu: Quantity.ofMilli(calculateCPUReservation(quantityMilliValue(machineType.cpu)), 'BinarySI').toString(),
    memory: Quantity.of(calculateMemoryReservation(quantityValue(machineType.memory)), 'BinarySI').toString(),
    pid: PID_RESERVATION,
  };
}

/** `reserved` with the fields it lacks taken from `defaults`. */
const fillReserved = (reserved: Reserved | undefined, defaults: Reserved): Reserved => ({
  ...reserved,
  cpu: reserved?.cpu ?? defaults.cpu,
  memory: reserved?.memory ?? defaults.memory,
  pid: reserved?.pid ?? defaults.pid,
});

function setStaticDefaults(shoot: Shoot): void {
  const kubelet = (shoot.spec.kubernetes.kubelet ??= {});
  kubelet.kubeReserved = fillReserved(kubelet.kubeReserved, StaticKubeReserved) as typeof kubelet.kubeReserved;
}

/** The ShootResourceReservation plugin with `config` (Gardener's defaults when omitted: static reservations). */
export function shootResourceReservation(config: ShootResourceReservationConfiguration = {}): AdmissionPlugin {
  const selector = config.selector ?? {};
  return {
    name: 'ShootResourceReservation',
    handles: (a) =>
      isKind(a, CORE, 'Shoot') &&
      (a.operation === 'CREATE' || a.operation === 'UPDATE') &&
      !a.subresource &&
      Boolean(a.object),
    async admit(a, listers) {
      const input = a.object as unknown as Shoot;
      if (input.metadata?.deletionTimestamp || !input.spec?.kubernetes) return allow();
      if ((input.spec.provider?.workers ?? []).length === 0) return allow(); // workerless Shoots have no kubelet
      const shoot = structuredClone(input);
      const changed = () =>
        JSON.stringify(shoot) === JSON.stringify(input) ? allow() : mutated(shoot as unknown as KubeObject);

      if (
        !config.useGKEFormula ||
        !labelSelectorMatches(selector, shoot.metadata?.labels) ||
        shoot.spec.kubernetes.kubelet?.kubeReserved // a Shoot-wide reservation wins over the formula
      ) {
        setStaticDefaults(shoot);
        return changed();
      }

      const found = await cloudProfileSpecFor(shoot, a.namespace, listers);
      if (!found.spec) return internalError(found.error!);
      const machineTypes = new Map(found.spec.machineTypes.map((t) => [t.name, t]));
      const errors: FieldError[] = [];
      const workers = FieldPath.root('spec', 'provider', 'workers');
      shoot.spec.provider.workers!.forEach((worker, i) => {
        const machineType = machineTypes.get(worker.machine.type);
        if (!machineType) {
          errors.push(
            invalid(workers.index(i).child('machine', 'type'), worker.machine.type, 'worker machine type unknown'),
          );
          return;
        }
        const kubelet = ((worker.kubernetes ??= {}).kubelet ??= {});
        kubelet.kubeReserved = fillReserved(
          kubelet.kubeReserved,
          reservationForMachineType(machineType),
        ) as typeof kubelet.kubeReserved;
      });
      if (errors.length > 0) return invalidObject(a, errors);
      return changed();
    },
  };
}

/** The ShootResourceReservation admission plugin with Gardener's default configuration (static reservations). */
export const ShootResourceReservation: AdmissionPlugin = shootResourceReservation();
