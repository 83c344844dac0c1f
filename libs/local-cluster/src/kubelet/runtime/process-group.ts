// Signals to a whole process group: a container is its main process and everything it started. Killing a container
// also reaches what its processes started in process groups of their own (a container runtime's cgroup holds them all):
// a local machine's kubelet runs its Pods' processes detached, and they must not outlive the machine.
import { readdirSync, readFileSync } from 'node:fs';
import { constants } from 'node:os';

/** Sends `signal` to the group led by `pid`; false when the group is gone. */
export function signalGroup(pid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(-pid, signal);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ESRCH') return false;
    throw err;
  }
}

export function groupAlive(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** A container's exit code as the kubelet reports it: the process's code, or 128 + the signal number. */
export function exitCodeOf(code: number | null, signal: NodeJS.Signals | null): number {
  if (code !== null) return code;
  return 128 + (signal ? (constants.signals[signal] ?? 0) : 0);
}

/** One row of the process table. */
export interface ProcessRow {
  pid: number;
  ppid: number;
  pgrp: number;
  /** /proc's state letter (R, S, Z for a zombie, ...). */
  state?: string;
  /** When the process started, in clock ticks since boot: with the pid, it names one process (pids are reused). */
  startTime?: string;
}

/**
 * The processes of the container whose group `pgid` leads (pure): the group's members and, transitively, their
 * children, whatever group those made for themselves.
 */
export function containerTree(rows: readonly ProcessRow[], pgid: number): number[] {
  const tree = new Set(rows.filter((r) => r.pgrp === pgid).map((r) => r.pid));
  for (let grew = true; grew;) {
    grew = false;
    for (const r of rows) {
      if (!tree.has(r.pid) && tree.has(r.ppid)) {
        tree.add(r.pid);
        grew = true;
      }
    }
  }
  return [...tree];
}

/** The process table from /proc (Linux); empty where there is none. */
export function processTable(): ProcessRow[] {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return [];
  }
  const rows: ProcessRow[] = [];
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // pid (comm) state ppid pgrp ...: comm may hold spaces and parentheses, so split after its last ')'.
      // Field 22 (starttime) is the 20th after the comm.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const [state, ppid, pgrp] = fields;
      rows.push({ pid: Number(entry), ppid: Number(ppid), pgrp: Number(pgrp), state, startTime: fields[19] });
    } catch {
      // The process ended while the table was read.
    }
  }
  return rows;
}

/** The processes of a container as they were seen: pid and start time (so a reused pid is never mistaken for one). */
export type ContainerMembers = Map<number, string | undefined>;

/** Adds the container's current processes to `members` (a snapshot to kill later, after they were re-parented). */
export function rememberContainer(pgid: number, members: ContainerMembers = new Map()): ContainerMembers {
  const rows = processTable();
  const byPid = new Map(rows.map((r) => [r.pid, r]));
  for (const pid of containerTree(rows, pgid)) members.set(pid, byPid.get(pid)?.startTime);
  return members;
}

/**
 * SIGKILL to the container of group `pgid` and to every process it started in another group (read before the kill:
 * a killed parent's children are re-parented at once), and to the `remembered` processes that are still the same
 * processes (those whose parent already ended are no longer in the tree). Synchronous, so it also serves when the
 * kubelet exits.
 */
export function killContainer(pgid: number, remembered?: ContainerMembers): void {
  const rows = processTable();
  const tree = new Set(containerTree(rows, pgid));
  if (remembered) {
    const byPid = new Map(rows.map((r) => [r.pid, r]));
    for (const [pid, startTime] of remembered) {
      const row = byPid.get(pid);
      if (row && row.state !== 'Z' && row.startTime === startTime) tree.add(pid);
    }
  }
  signalGroup(pgid, 'SIGKILL');
  for (const pid of tree) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Gone already.
    }
  }
}
