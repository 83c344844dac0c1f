// One probe attempt: HTTP GET (2xx/3xx succeed), TCP connect, or a command that exits 0. Every attempt has a timeout.
import { spawn } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { connect } from 'node:net';
import type * as k8s from '@kubernetes/client-node';
import { HOST_IP } from '../pods/field-path.js';
import { signalGroup } from '../runtime/process-group.js';

export interface ProbeTarget {
  container: k8s.V1Container;
  /** The container's environment and working directory, for exec probes. */
  env: Record<string, string>;
  cwd: string;
  /** The argv an exec probe's command runs as: a program of the container's image only (throws otherwise). */
  exec(command: string[]): string[];
  /** The Pod's address: where HTTP and TCP probes without a host go. */
  host?: string;
}

export type ProbeResult = { ok: true } | { ok: false; message: string };

export async function runProbe(probe: k8s.V1Probe, target: ProbeTarget): Promise<ProbeResult> {
  const timeoutMs = (probe.timeoutSeconds ?? 1) * 1000;
  try {
    if (probe.httpGet)
      return await httpProbe(
        probe.httpGet,
        target.host ?? HOST_IP,
        resolvePort(probe.httpGet.port as number | string, target.container),
        timeoutMs,
      );
    if (probe.tcpSocket)
      return await tcpProbe(
        probe.tcpSocket,
        target.host ?? HOST_IP,
        resolvePort(probe.tcpSocket.port as number | string, target.container),
        timeoutMs,
      );
  } catch (err) {
    return { ok: false, message: (err as Error).message };
  }
  if (probe.exec) return execProbe(probe.exec.command ?? [], target, timeoutMs);
  return { ok: false, message: 'probe has no handler the local kubelet supports (httpGet, tcpSocket, exec)' };
}

/** A numeric port, or a named one looked up in the container's ports. */
export function resolvePort(port: number | string, container: k8s.V1Container): number {
  if (typeof port === 'number') return port;
  if (/^\d+$/.test(port)) return Number(port);
  const named = container.ports?.find((p) => p.name === port);
  if (!named) throw new Error(`container ${container.name} has no port named ${JSON.stringify(port)}`);
  return named.containerPort;
}

function httpProbe(action: k8s.V1HTTPGetAction, podIP: string, port: number, timeoutMs: number): Promise<ProbeResult> {
  return new Promise((done) => {
    const https = action.scheme === 'HTTPS';
    const headers = Object.fromEntries((action.httpHeaders ?? []).map((h) => [h.name, h.value]));
    const req = (https ? httpsRequest : httpRequest)(
      {
        host: action.host || podIP,
        port,
        path: action.path || '/',
        method: 'GET',
        headers: { 'User-Agent': 'kube-probe/local', ...headers },
        timeout: timeoutMs,
        rejectUnauthorized: false,
      },
      (res) => {
        res.resume();
        const status = res.statusCode ?? 0;
        done(
          status >= 200 && status < 400
            ? { ok: true }
            : { ok: false, message: `HTTP probe failed with statuscode: ${status}` },
        );
      },
    );
    req.on('timeout', () => req.destroy(new Error(`timeout after ${timeoutMs}ms`)));
    req.on('error', (err) =>
      done({
        ok: false,
        message: `Get "${https ? 'https' : 'http'}://${action.host || podIP}:${port}${action.path || '/'}": ${err.message}`,
      }),
    );
    req.end();
  });
}

function tcpProbe(action: k8s.V1TCPSocketAction, podIP: string, port: number, timeoutMs: number): Promise<ProbeResult> {
  return new Promise((done) => {
    const socket = connect({ host: action.host || podIP, port, timeout: timeoutMs });
    socket.once('connect', () => {
      socket.destroy();
      done({ ok: true });
    });
    socket.once('timeout', () => socket.destroy(new Error(`timeout after ${timeoutMs}ms`)));
    socket.once('error', (err) =>
      done({ ok: false, message: `dial tcp ${action.host || podIP}:${port}: ${err.message}` }),
    );
  });
}

function execProbe(command: string[], target: ProbeTarget, timeoutMs: number): Promise<ProbeResult> {
  return new Promise((done) => {
    if (command.length === 0) return done({ ok: false, message: 'exec probe has no command' });
    let argv: string[];
    try {
      argv = target.exec(command);
    } catch (err) {
      return done({ ok: false, message: (err as Error).message });
    }
    const child = spawn(argv[0], argv.slice(1), {
      env: target.env,
      cwd: target.cwd,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const collect = (chunk: Buffer) => (output = (output + chunk.toString('utf8')).slice(-1024));
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    const timer = setTimeout(() => child.pid && signalGroup(child.pid, 'SIGKILL'), timeoutMs);
    child.once('error', (err) => {
      clearTimeout(timer);
      done({ ok: false, message: err.message });
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      if (child.pid) signalGroup(child.pid, 'SIGKILL');
      if (code === 0) done({ ok: true });
      else
        done({
          ok: false,
          message: signal ? `command timed out after ${timeoutMs}ms` : `command exited with ${code}: ${output.trim()}`,
        });
    });
  });
}
