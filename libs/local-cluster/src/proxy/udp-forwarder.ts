// One listening socket for one UDP Service port. UDP has no connections, so the forwarder keeps "flows" as conntrack
// does for kube-proxy: the first datagram from a client address:port picks an endpoint (BackendPicker: round robin
// or the client's affinity) and opens an upstream socket for that client; later datagrams of the flow go the same
// way, and whatever the endpoint sends back to the upstream socket goes to the client from the listening socket.
//
// Idle flows expire with conntrack's UDP timeouts: 30 s (nf_conntrack_udp_timeout) while the endpoint has not
// answered, 120 s (nf_conntrack_udp_timeout_stream) once it has. A flow whose endpoint leaves the ready set ends at
// once, as kube-proxy clears conntrack entries of stale UDP endpoints, so the client's next datagram picks a live one.
// With no ready endpoint datagrams are dropped: UDP has nothing like a reset.
import { createSocket, type RemoteInfo, type Socket } from 'node:dgram';
import { isIPv6 } from 'node:net';
import { BackendPicker, type Backend } from './backend-picker.js';

export interface UdpTimeouts {
  /** Idle time after which a flow the endpoint never answered ends. */
  unrepliedMs: number;
  /** Idle time after which a flow the endpoint answered ends. */
  repliedMs: number;
}

export const CONNTRACK_UDP_TIMEOUTS: UdpTimeouts = { unrepliedMs: 30_000, repliedMs: 120_000 };

interface Flow {
  backend: Backend;
  upstream: Socket;
  /** Datagrams that arrived before the upstream socket was bound. */
  pending: Buffer[] | undefined;
  lastActive: number;
  replied: boolean;
}

export class UdpForwarder {
  private readonly picker = new BackendPicker();
  private readonly flows = new Map<string, Flow>();
  private readonly sweeper: NodeJS.Timeout;

  private constructor(
    readonly host: string,
    readonly port: number,
    private readonly socket: Socket,
    private readonly timeouts: UdpTimeouts,
  ) {
    const every = Math.max(50, Math.min(timeouts.unrepliedMs, timeouts.repliedMs) / 4);
    this.sweeper = setInterval(() => this.expire(), every).unref();
  }

  /** Binds host:port (port 0: any free port; the chosen one is `port`). Rejects when the port is taken. */
  static async listen(
    host: string,
    port: number,
    timeouts: UdpTimeouts = CONNTRACK_UDP_TIMEOUTS,
  ): Promise<UdpForwarder> {
    const socket = createSocket(isIPv6(host) ? 'udp6' : 'udp4');
    await new Promise<void>((resolve, reject) => {
      socket.once('error', reject);
      socket.bind(port, host, () => {
        socket.off('error', reject);
        resolve();
      });
    });
    const forwarder = new UdpForwarder(host, socket.address().port, socket, timeouts);
    socket.on('message', (message, client) => forwarder.forward(message, client));
    // A send to a client that went away must not end the listener.
    socket.on('error', () => undefined);
    return forwarder;
  }

  /** The ready endpoints, and the ClientIP affinity timeout (undefined: none). */
  setBackends(backends: Backend[], affinityMs?: number): void {
    this.picker.update(backends, affinityMs);
    for (const [client, flow] of this.flows) if (!this.picker.has(flow.backend)) this.end(client, flow);
  }

  /** How many client flows are open (for tests and diagnostics). */
  get flowCount(): number {
    return this.flows.size;
  }

  private forward(message: Buffer, client: RemoteInfo): void {
    const key = `${client.address}:${client.port}`;
    const flow = this.flows.get(key) ?? this.open(key, client);
    if (!flow) return;
    flow.lastActive = Date.now();
    if (flow.pending) flow.pending.push(message);
    else flow.upstream.send(message, flow.backend.port, flow.backend.host);
  }

  private open(key: string, client: RemoteInfo): Flow | undefined {
    const backend = this.picker.pick(client.address);
    if (!backend) return undefined;
    const upstream = createSocket(isIPv6(backend.host) ? 'udp6' : 'udp4');
    const flow: Flow = { backend, upstream, pending: [], lastActive: Date.now(), replied: false };
    this.flows.set(key, flow);
    // Not connected on purpose: a server bound to 0.0.0.0 answers a loopback client from 127.0.0.1, not from the
    // pod address it was sent to, and a connected socket would drop that answer. The upstream socket's port is this
    // flow's alone, so whatever arrives on it is the endpoint's answer.
    upstream.on('message', (answer) => {
      flow.replied = true;
      flow.lastActive = Date.now();
      this.socket.send(answer, client.port, client.address);
    });
    // A send the endpoint's host rejects at once: as a refused TCP connect, the client's affinity to it goes.
    upstream.on('error', () => {
      this.picker.failed(client.address, backend);
      this.end(key, flow);
    });
    upstream.bind(0, () => {
      const pending = flow.pending ?? [];
      flow.pending = undefined;
      for (const message of pending) upstream.send(message, backend.port, backend.host);
    });
    return flow;
  }

  private end(key: string, flow: Flow): void {
    if (this.flows.get(key) === flow) this.flows.delete(key);
    try {
      flow.upstream.close();
    } catch {
      // Closed already.
    }
  }

  private expire(): void {
    const now = Date.now();
    for (const [key, flow] of this.flows) {
      const timeout = flow.replied ? this.timeouts.repliedMs : this.timeouts.unrepliedMs;
      if (now - flow.lastActive > timeout) this.end(key, flow);
    }
  }

  async close(): Promise<void> {
    clearInterval(this.sweeper);
    for (const [key, flow] of this.flows) this.end(key, flow);
    await new Promise<void>((resolve) => this.socket.close(() => resolve()));
  }
}
