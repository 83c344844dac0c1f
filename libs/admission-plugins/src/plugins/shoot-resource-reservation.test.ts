import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { example, request } from '../../test/examples.js';
import { staticListers } from '../listers.js';
import { runChain } from '../chain.js';
import type { KubeObject } from '../attributes.js';
import {
  calculateCPUReservation,
  calculateMemoryReservation,
  reservationForMachineType,
  ShootResourceReservation,
  shootResourceReservation,
} from './shoot-resource-reservation.js';

const MiB = 1024 * 1024;
const GiB = 1024 * MiB;
const shoot = () => example('local/shoot.yaml');
// Gardener's own test machine type: 2 CPUs, 5Gi.
const profile = () => {
  const p = example('local/cloudprofile.yaml');
  p.spec.machineTypes.push({ name: 'n1-standard-2', cpu: '2', gpu: '0', memory: '5Gi' });
  return p;
};
const admit = (plugin = ShootResourceReservation, object: KubeObject = shoot(), objects: KubeObject[] = [profile()]) =>
  runChain([plugin], request('CREATE', object), staticListers(objects));

describe('ShootResourceReservation', () => {
  it("gives Gardener's example Shoot the static kubeReserved by default, keeping its kubelet settings", async () => {
    const result = await admit();
    expect(result.allowed && result.object?.spec.kubernetes.kubelet).toMatchObject({
      seccompDefault: true,
      kubeReserved: { cpu: '80m', memory: '1Gi', pid: '20k' },
    });
  });

  it('fills only what a Shoot-wide kubeReserved lacks, and leaves workerless Shoots alone', async () => {
    const s = shoot();
    s.spec.kubernetes.kubelet.kubeReserved = { memory: '512Mi' };
    const result = await admit(ShootResourceReservation, s);
    expect(result.allowed && result.object?.spec.kubernetes.kubelet.kubeReserved).toEqual({
      cpu: '80m',
      memory: '512Mi',
      pid: '20k',
    });
    const workerless = shoot();
    workerless.spec.provider.workers = [];
    const untouched = await admit(ShootResourceReservation, workerless);
    expect(untouched.allowed && untouched.object).toBeUndefined();
  });

  it("computes each worker pool's reservation from its machine type with useGKEFormula", async () => {
    const s = shoot();
    s.spec.provider.workers[0].machine.type = 'n1-standard-2';
    const result = await admit(shootResourceReservation({ useGKEFormula: true }), s);
    expect(result.allowed && result.object?.spec.provider.workers[0].kubernetes.kubelet.kubeReserved).toEqual({
      cpu: '70m',
      memory: '1288490188',
      pid: '20k',
    });
    expect(result.allowed && result.object?.spec.kubernetes.kubelet.kubeReserved).toBeUndefined();
  });

  it('keeps what a worker pool reserves itself, and the static defaults for a Shoot-wide reservation', async () => {
    const s = shoot();
    s.spec.provider.workers[0].kubernetes = { kubelet: { kubeReserved: { cpu: '42m', memory: '512Mi', pid: '31k' } } };
    const result = await admit(shootResourceReservation({ useGKEFormula: true }), s);
    expect(result.allowed && result.object).toBeUndefined();

    const global = shoot();
    global.spec.kubernetes.kubelet.kubeReserved = { cpu: '42m', memory: '512Mi', pid: '31k' };
    const kept = await admit(shootResourceReservation({ useGKEFormula: true }), global);
    expect(kept.allowed && kept.object).toBeUndefined();
  });

  it('applies the formula only to Shoots the selector matches', async () => {
    const plugin = shootResourceReservation({
      useGKEFormula: true,
      selector: { matchLabels: { 'shoot.gardener.cloud/worker-specific-reservations': 'true' } },
    });
    const s = shoot();
    s.metadata!.labels = { 'shoot.gardener.cloud/worker-specific-reservations': 'false' };
    const result = await admit(plugin, s);
    expect(result.allowed && result.object?.spec.kubernetes.kubelet.kubeReserved).toEqual({
      cpu: '80m',
      memory: '1Gi',
      pid: '20k',
    });
    s.metadata!.labels['shoot.gardener.cloud/worker-specific-reservations'] = 'true';
    const matched = await admit(plugin, s);
    // The example's machine type `local`: 1 CPU, 8Gi.
    expect(matched.allowed && matched.object?.spec.provider.workers[0].kubernetes.kubelet.kubeReserved).toEqual({
      cpu: '60m',
      memory: String(GiB + Math.floor((4 * GiB) / 5)),
      pid: '20k',
    });
  });

  it("refuses an unknown machine type under the formula with Gardener's field path", async () => {
    const s = shoot();
    s.spec.provider.workers[0].machine.type = 'huge';
    expect(await admit(shootResourceReservation({ useGKEFormula: true }), s)).toMatchObject({
      allowed: false,
      code: 422,
      message:
        'Shoot.core.gardener.cloud "local" is invalid: spec.provider.workers[0].machine.type: Invalid value: "huge": worker machine type unknown',
    });
  });

  it("reserves CPU and memory as Gardener's table says", () => {
    const cpu: [number, number][] = [
      [1000, 60],
      [2000, 70],
      [3000, 75],
      [4000, 80],
      [5000, 82],
      [6000, 85],
      [10000, 95],
    ];
    for (const [millis, reserved] of cpu) expect(calculateCPUReservation(millis)).toBe(reserved);
    const g = (n: number) => Math.floor(n);
    const memory: [number, number][] = [
      [500 * MiB, 255 * MiB],
      [GiB, 256 * MiB],
      [2 * GiB, 512 * MiB],
      [4 * GiB, GiB],
      [8 * GiB, GiB + g((4 * GiB) / 5)],
      [16 * GiB, GiB + g((4 * GiB) / 5) + g((8 * GiB) / 10)],
      [32 * GiB, GiB + g((4 * GiB) / 5) + g((8 * GiB) / 10) + g((16 * GiB) / 100) * 6],
      [256 * GiB, GiB + g((4 * GiB) / 5) + g((8 * GiB) / 10) + g((112 * GiB) / 100) * 6 + g((128 * GiB) / 100) * 2],
      [1024 * GiB, GiB + g((4 * GiB) / 5) + g((8 * GiB) / 10) + g((112 * GiB) / 100) * 6 + g((896 * GiB) / 100) * 2],
    ];
    for (const [bytes, reserved] of memory) expect(calculateMemoryReservation(bytes)).toBe(reserved);
    expect(reservationForMachineType({ name: 'm', cpu: '2', gpu: '0', memory: '4Gi' })).toEqual({
      cpu: '70m',
      memory: '1Gi',
      pid: '20k',
    });
  });

  it('reserves more for bigger machines, never all of one (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 512 }), fc.integer({ min: 1, max: 512 }), (a, b) => {
        const [small, big] = a <= b ? [a, b] : [b, a];
        expect(calculateCPUReservation(small * 1000)).toBeLessThanOrEqual(calculateCPUReservation(big * 1000));
        expect(calculateCPUReservation(small * 1000)).toBeLessThan(small * 1000);
        expect(calculateMemoryReservation(small * GiB)).toBeLessThanOrEqual(calculateMemoryReservation(big * GiB));
        expect(calculateMemoryReservation(small * GiB)).toBeLessThan(small * GiB);
      }),
    );
  });
});
