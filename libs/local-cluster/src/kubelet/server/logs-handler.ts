// GET /containerLogs/<namespace>/<pod>/<container>?follow=&previous=&tailLines=&sinceSeconds=&sinceTime=&timestamps=&limitBytes=
import { access } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { PodWorker } from '../pods/pod-worker.js';
import { containerLogPath } from '../runtime/log-file.js';
import { followLog, readLog, type LogQuery } from '../runtime/log-reader.js';
import { HttpError } from './responses.js';

export async function serveLogs(
  worker: PodWorker,
  containerName: string,
  query: URLSearchParams,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const container = worker.container(containerName);
  if (!container) throw new HttpError(400, `container ${containerName} is not valid for pod ${worker.name}`);
  const previous = flag(query, 'previous');
  const runs = container.starts;
  const index = previous ? container.restartCount - 1 : container.restartCount;
  const path = containerLogPath(worker.dir, containerName, index);
  if (runs === 0 || index < 0 || !(await exists(path))) {
    if (previous)
      throw new HttpError(400, `previous terminated container "${containerName}" in pod "${worker.name}" not found`);
    throw new HttpError(
      400,
      `container "${containerName}" in pod "${worker.name}" is waiting to start: ${reasonOf(container.state)}`,
    );
  }
  const logQuery = parseQuery(query);
  res.writeHead(200, { 'Content-Type': 'text/plain; charset=utf-8' });
  if (!flag(query, 'follow') || previous) {
    res.end(await readLog(path, logQuery));
    return;
  }
  // Following ends when this run of the container ends or the client goes away.
  const abort = new AbortController();
  req.once('close', () => abort.abort());
  const process = container.process;
  await followLog(
    path,
    logQuery,
    (chunk) => res.write(chunk),
    () => !process?.running || container.process !== process,
    abort.signal,
  );
  res.end();
}

function parseQuery(query: URLSearchParams): LogQuery {
  const number = (name: string) => {
    const raw = query.get(name);
    if (raw === null || raw === '') return undefined;
    const value = Number(raw);
    if (!Number.isInteger(value) || value < 0)
      throw new HttpError(400, `${name} must be a non-negative integer, got ${JSON.stringify(raw)}`);
    return value;
  };
  const sinceSeconds = number('sinceSeconds');
  const sinceTime = query.get('sinceTime');
  if (sinceTime && Number.isNaN(Date.parse(sinceTime)))
    throw new HttpError(400, `sinceTime must be an RFC 3339 time, got ${JSON.stringify(sinceTime)}`);
  return {
    tailLines: number('tailLines'),
    limitBytes: number('limitBytes'),
    timestamps: flag(query, 'timestamps'),
    since:
      sinceSeconds !== undefined
        ? new Date(Date.now() - sinceSeconds * 1000)
        : sinceTime
          ? new Date(sinceTime)
          : undefined,
  };
}

export function flag(query: URLSearchParams, name: string): boolean {
  const value = query.get(name);
  return value !== null && value !== 'false' && value !== '0';
}

function reasonOf(state: object): string {
  return 'waiting' in state ? String((state.waiting as { reason: string }).reason) : 'not started';
}

async function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}
