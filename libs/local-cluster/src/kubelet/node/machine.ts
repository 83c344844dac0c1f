// What this machine offers as a Node: capacity, system info and the pressure signals, read from the OS.
import { readdirSync, readFileSync } from 'node:fs';
import { statfs } from 'node:fs/promises';
import os from 'node:os';

// The kubelet's default hard eviction thresholds.
const MEMORY_AVAILABLE_MIN = 100 * 2 ** 20;
const DISK_AVAILABLE_MIN_FRACTION = 0.1;
const PID_USED_MAX_FRACTION = 0.9;

export const MAX_PODS = 110;

export function goArch(arch = process.arch): string {
  return (
    (
      { x64: 'amd64', ia32: '386', arm64: 'arm64', arm: 'arm', ppc64: 'ppc64le', s390x: 's390x' } as Record<
        string,
        string
      >
    )[arch] ?? arch
  );
}

export async function capacity(dataDir: string): Promise<Record<string, string>> {
  const fs = await statfs(dataDir);
  return {
    cpu: String(os.availableParallelism()),
    memory: `${Math.floor(os.totalmem() / 1024)}Ki`,
    pods: String(MAX_PODS),
    'ephemeral-storage': `${Math.floor((fs.blocks * fs.bsize) / 1024)}Ki`,
  };
}

export interface Pressure {
  memory: boolean;
  disk: boolean;
  pid: boolean;
}

export async function pressure(dataDir: string): Promise<Pressure> {
  const fs = await statfs(dataDir);
  return {
    memory: os.freemem() < MEMORY_AVAILABLE_MIN,
    disk: fs.bavail / fs.blocks < DISK_AVAILABLE_MIN_FRACTION,
    pid: pidUsage() > PID_USED_MAX_FRACTION,
  };
}

// Fraction of the pid space in use; 0 where /proc does not tell.
function pidUsage(): number {
  try {
    const max = Number(readFileSync('/proc/sys/kernel/pid_max', 'utf8'));
    const used = readdirSync('/proc').filter((e) => /^\d+$/.test(e)).length;
    return max > 0 ? used / max : 0;
  } catch {
    return 0;
  }
}

export function machineId(): string {
  for (const path of ['/etc/machine-id', '/var/lib/dbus/machine-id']) {
    try {
      return readFileSync(path, 'utf8').trim();
    } catch {
      // try the next one
    }
  }
  return '';
}

export function bootId(): string {
  try {
    return readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
  } catch {
    return '';
  }
}
