// Every process group the kubelet starts is recorded in its pod's directory, so a kubelet that restarts after a
// crash finds and kills what the previous one left behind. The process start time guards against a reused pid.
import { readFileSync } from 'node:fs';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { confinedJoin } from '../volumes/confined-path.js';
import { signalGroup } from './process-group.js';

interface PidRecord {
  pid: number;
  /** Field 22 of /proc/<pid>/stat (clock ticks since boot); absent where /proc does not exist. */
  startTicks?: string;
}

export function pidsDir(podDir: string): string {
  return join(podDir, 'pids');
}

export async function recordPid(podDir: string, name: string, pid: number): Promise<void> {
  await mkdir(pidsDir(podDir), { recursive: true });
  const record: PidRecord = { pid, startTicks: startTicks(pid) };
  await writeFile(confinedJoin(pidsDir(podDir), [`${name}.json`]), JSON.stringify(record));
}

export async function forgetPid(podDir: string, name: string): Promise<void> {
  await rm(confinedJoin(pidsDir(podDir), [`${name}.json`]), { force: true });
}

/** Kills (SIGKILL) every recorded process group under `<podsDir>/<uid>/pids` that is still ours; returns their pids. */
export async function killLeftovers(podsDir: string): Promise<number[]> {
  const killed: number[] = [];
  for (const uid of await listDir(podsDir)) {
    const dir = pidsDir(join(podsDir, uid));
    for (const file of await listDir(dir)) {
      try {
        const record = JSON.parse(await readFile(join(dir, file), 'utf8')) as PidRecord;
        if (
          Number.isInteger(record.pid) &&
          record.pid > 1 &&
          startTicks(record.pid) === record.startTicks &&
          signalGroup(record.pid, 'SIGKILL')
        ) {
          killed.push(record.pid);
        }
      } catch {
        // An unreadable record names no process we could safely kill.
      }
      await rm(join(dir, file), { force: true });
    }
  }
  return killed;
}

function startTicks(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may contain spaces; fields after it are space-separated.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

async function listDir(dir: string): Promise<string[]> {
  try {
    return await readdir(dir);
  } catch {
    return [];
  }
}
