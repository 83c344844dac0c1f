import { execFile, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createSocket, type Socket } from 'node:dgram';
import { mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inPodCIDR, nodePodCIDRs, podAddress, podAddressCount, podNetworkEnv } from './pod-network.js';

function boundAddress(listenCall: string, podIP: string): string {
  const program = `const net = require('node:net'); const s = net.createServer(); ${listenCall.replace('CB', '() => { console.log(s.address().address); s.close(); }')};`;
  const result = spawnSync(process.execPath, ['-e', program], {
    env: podNetworkEnv(podIP, { PATH: process.env.PATH ?? '' }),
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(result.stderr);
  return result.stdout.trim();
}

describe('pod network preload', () => {
  it('binds wildcard listens to the pod address, in every listen() form', () => {
    expect(boundAddress('s.listen(0, CB)', '127.9.0.1')).toBe('127.9.0.1');
    expect(boundAddress("s.listen(0, '0.0.0.0', CB)", '127.9.0.2')).toBe('127.9.0.2');
    expect(boundAddress("s.listen({ port: 0, host: '::' }, CB)", '127.9.0.3')).toBe('127.9.0.3');
    expect(boundAddress('s.listen({ port: 0 }, CB)', '127.9.0.4')).toBe('127.9.0.4');
  });

  it('leaves explicit addresses alone', () => {
    expect(boundAddress("s.listen(0, '127.0.0.1', CB)", '127.9.0.5')).toBe('127.0.0.1');
  });

  it('lets two pods listen on the same port at once', async () => {
    const program = `const s = require('node:net').createServer(); s.listen(45678, () => { console.log(s.address().address); setTimeout(() => s.close(), 1000); });`;
    const run = (ip: string) => promisify(execFile)(process.execPath, ['-e', program], { env: podNetworkEnv(ip, {}) });
    const [a, b] = await Promise.all([run('127.9.1.1'), run('127.9.1.2')]);
    expect([a.stdout.trim(), b.stdout.trim()]).toEqual(['127.9.1.1', '127.9.1.2']);
  });
});

describe('pod network preload: Services', () => {
  let dir: string;
  let file: string;
  const servers: Server[] = [];
  const ports: number[] = [];
  /** A UDP echo server ("udp:<datagram> from <client address>"), the UDP backend of demo/dns. */
  let udp: Socket;
  /** An HTTP server answering with the client's address, the TCP backend of demo/dns. */
  let whoami: Server;
  /**
   * The endpoints of the headless Service demo/etcd (a StatefulSet's): etcd-0 a pod process with the preload, listening
   * on all interfaces (so on its pod address 127.9.3.1), etcd-1 a server here on 127.9.3.2; their ports.
   */
  let etcd0: ChildProcess;
  let etcd1: Server;
  const etcdPorts: number[] = [];

  /**
   * A services.json as the service proxy writes it: demo/hello port 80, default/kubernetes port 443, and demo/dns with
   * 53/TCP (whoami) and 53/UDP (the echo server).
   */
  const servicesJson = (extra: object[] = []) =>
    JSON.stringify({
      services: [
        {
          namespace: 'demo',
          name: 'hello',
          type: 'ClusterIP',
          clusterIP: '10.0.0.12',
          host: '127.0.0.1',
          ports: [{ name: 'http', protocol: 'TCP', port: 80, localPort: ports[0] }],
        },
        // The proxy lists the API server's Service too, with a port that has no backends: the preload must not use it.
        {
          namespace: 'default',
          name: 'kubernetes',
          type: 'ClusterIP',
          clusterIP: '10.0.0.1',
          host: '127.0.0.1',
          ports: [{ name: 'https', protocol: 'TCP', port: 443, localPort: 1 }],
        },
        {
          namespace: 'demo',
          name: 'dns',
          type: 'ClusterIP',
          clusterIP: '10.0.0.53',
          host: '127.0.0.1',
          ports: [
            { name: 'dns-tcp', protocol: 'TCP', port: 53, localPort: (whoami.address() as AddressInfo).port },
            { name: 'dns', protocol: 'UDP', port: 53, localPort: udp.address().port },
          ],
        },
        // Headless: the proxy lists its ready endpoints, StatefulSet pods with their hostnames, and their ports.
        {
          namespace: 'demo',
          name: 'etcd',
          type: 'ClusterIP',
          clusterIP: 'None',
          host: '127.0.0.1',
          ports: [],
          endpoints: [
            {
              addresses: ['127.9.3.1'],
              hostname: 'etcd-0',
              pod: 'etcd-0',
              ports: [{ name: 'peer', protocol: 'TCP', port: etcdPorts[0] }],
            },
            {
              addresses: ['127.9.3.2'],
              hostname: 'etcd-1',
              pod: 'etcd-1',
              ports: [{ name: 'peer', protocol: 'TCP', port: etcdPorts[1] }],
            },
          ],
        },
        {
          namespace: 'demo',
          name: 'ext',
          type: 'ExternalName',
          host: '127.0.0.1',
          ports: [],
          externalName: 'localhost',
        },
        ...extra,
      ],
    });

  /** Runs an ES module in a pod of namespace demo (process.argv.slice(1) is `args`); its stdout, trimmed. */
  /** Runs `source` as a Pod's program and resolves with its stdout; `onStderr` sees its stderr as it comes. */
  async function inPod(source: string, args: string[] = [], onStderr?: (text: string) => void): Promise<string> {
    const env = podNetworkEnv(
      '127.9.2.1',
      {
        PATH: process.env.PATH ?? '',
        GARDENER_LOCAL_SERVICES_FILE: file,
        KUBERNETES_SERVICE_HOST: '127.0.0.1',
        KUBERNETES_SERVICE_PORT: String(ports[1]),
      },
      'demo',
    );
    const running = promisify(execFile)(process.execPath, ['--input-type=module', '-e', source, ...args], {
      env,
      timeout: 20_000,
    });
    if (onStderr) running.child.stderr?.on('data', (chunk) => onStderr(String(chunk)));
    return (await running).stdout.trim();
  }

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'pod-network-'));
    file = join(dir, 'services.json');
    for (const id of ['hello', 'apiserver', 'late']) {
      const server = createServer((_req, res) => res.end(id));
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      servers.push(server);
      ports.push((server.address() as AddressInfo).port);
    }
    udp = createSocket('udp4');
    udp.on('message', (m, from) => udp.send(`udp:${m.toString()} from ${from.address}`, from.port, from.address));
    await new Promise<void>((resolve) => udp.bind(0, '127.0.0.1', resolve));
    whoami = createServer((req, res) => res.end(req.socket.remoteAddress));
    await new Promise<void>((resolve) => whoami.listen(0, '127.0.0.1', resolve));
    etcd0 = spawn(
      process.execPath,
      [
        '-e',
        `const s = require('node:http').createServer((q, r) => r.end('etcd-0 on ' + s.address().address)); s.listen(0, () => console.log(s.address().port));`,
      ],
      {
        env: podNetworkEnv('127.9.3.1', { PATH: process.env.PATH ?? '' }, 'demo'),
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    etcdPorts.push(
      await new Promise<number>((resolve, reject) => {
        etcd0.stdout!.once('data', (d) => resolve(Number(String(d).trim())));
        etcd0.once('exit', (code) => reject(new Error(`etcd-0 exited with ${code}`)));
      }),
    );
    etcd1 = createServer((_req, res) => res.end('etcd-1'));
    await new Promise<void>((resolve) => etcd1.listen(0, '127.9.3.2', resolve));
    etcdPorts.push((etcd1.address() as AddressInfo).port);
    await writeFile(file, servicesJson());
  });
  afterAll(async () => {
    for (const s of servers) s.close();
    udp.close();
    whoami.close();
    etcd0?.kill();
    etcd1?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('resolves every form of a Service name to its ClusterIP with dns.lookup', async () => {
    const out = await inPod(`
      import dns, { lookup } from 'node:dns';
      const names = ['hello.demo.svc.cluster.local', 'hello.demo.svc', 'hello.demo', 'hello', 'HELLO.demo.svc.cluster.local.'];
      const results = [];
      for (const name of names) results.push((await dns.promises.lookup(name)).address);
      results.push(await new Promise((r) => lookup('hello.demo.svc', (err, address, family) => r(err ? err.code : address + '/' + family))));
      results.push(await new Promise((r) => dns.lookup('hello', { all: true }, (err, all) => r(JSON.stringify(all)))));
      results.push(await dns.promises.lookup('nothere.demo.svc.cluster.local').then((a) => a.address, (err) => err.code));
      results.push((await dns.promises.lookup('kubernetes.default.svc')).address);
      console.log(JSON.stringify(results));`);
    expect(JSON.parse(out)).toEqual([
      '10.0.0.12',
      '10.0.0.12',
      '10.0.0.12',
      '10.0.0.12',
      '10.0.0.12',
      '10.0.0.12/4',
      JSON.stringify([{ address: '10.0.0.12', family: 4 }]),
      'ENOTFOUND',
      '10.0.0.1',
    ]);
  });

  it('connects names and ClusterIP:port to the local port, over http, fetch and net, and kubernetes.default to the API server', async () => {
    const out = await inPod(`
      import http from 'node:http';
      import net from 'node:net';
      const get = (url) => new Promise((resolve, reject) => http.get(url, (res) => { let b = ''; res.on('data', (d) => (b += d)); res.on('end', () => resolve(b)); }).on('error', reject));
      const raw = (...args) => new Promise((resolve, reject) => {
        const socket = net.connect(...args, () => socket.write('GET / HTTP/1.0\\r\\n\\r\\n'));
        let b = ''; socket.on('data', (d) => (b += d)); socket.on('end', () => resolve(b.split('\\r\\n\\r\\n')[1])); socket.on('error', reject);
      });
      console.log(JSON.stringify([
        await get('http://hello.demo.svc.cluster.local/'),
        await get('http://10.0.0.12:80/'),
        await (await fetch('http://hello:80/')).text(),
        await (await fetch('http://10.0.0.12/')).text(),
        await raw(80, 'hello.demo'),
        await raw({ host: '10.0.0.12', port: 80 }),
        await get('http://kubernetes.default.svc:443/'),
        await get('http://10.0.0.1:443/'),
      ]));`);
    expect(JSON.parse(out)).toEqual(['hello', 'hello', 'hello', 'hello', 'hello', 'hello', 'apiserver', 'apiserver']);
  });

  it('connects straight to a ready endpoint the file lists for a TCP port, one at random per connection, from the pod address', async () => {
    // demo/direct: the proxy's local port answers "proxy"; the file lists two endpoints (whoami and etcd-1's server).
    const endpoint = createServer((req, res) => res.end(`endpoint ${req.socket.remoteAddress}`));
    await new Promise<void>((resolve) => endpoint.listen(0, '127.9.4.1', resolve));
    const other = createServer((req, res) => res.end(`other ${req.socket.remoteAddress}`));
    await new Promise<void>((resolve) => other.listen(0, '127.9.4.2', resolve));
    const proxy = createServer((_req, res) => res.end('proxy'));
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    const port = (s: Server) => (s.address() as AddressInfo).port;
    const direct = (backends: object[]) => ({
      namespace: 'demo',
      name: 'direct',
      type: 'ClusterIP',
      clusterIP: '10.0.0.77',
      host: '127.0.0.1',
      ports: [{ name: 'http', protocol: 'TCP', port: 80, localPort: port(proxy), backends }],
    });
    const get = `
      import http from 'node:http';
      // A new connection each time (no keep-alive agent): each one picks its endpoint.
      const get = (url) => new Promise((resolve, reject) => http.get(url, { agent: false }, (res) => { let b = ''; res.on('data', (d) => (b += d)); res.on('end', () => resolve(b)); }).on('error', reject));
      const seen = [];
      for (let i = 0; i < 20; i++) seen.push(await get(i % 2 ? 'http://direct.demo.svc/' : 'http://10.0.0.77/'));
      console.log(JSON.stringify([...new Set(seen)].sort()));`;
    try {
      const tmp = join(dir, 'direct.json');
      await writeFile(
        tmp,
        servicesJson([
          direct([
            { host: '127.9.4.1', port: port(endpoint) },
            { host: '127.9.4.2', port: port(other) },
          ]),
        ]),
      );
      await rename(tmp, file);
      expect(JSON.parse(await inPod(get))).toEqual(['endpoint 127.9.2.1', 'other 127.9.2.1']);
      // No ready endpoint listed (none ready, or ClientIP affinity): the proxy's port, which answers for itself.
      await writeFile(tmp, servicesJson([direct([])]));
      await rename(tmp, file);
      expect(JSON.parse(await inPod(get))).toEqual(['proxy']);
    } finally {
      await writeFile(file, servicesJson());
      for (const s of [endpoint, other, proxy]) s.close();
    }
  });

  it('sends datagrams to a Service name or ClusterIP with a UDP port to its local UDP port, and TCP to the TCP one, from the pod address', async () => {
    const out = await inPod(`
      import dgram from 'node:dgram';
      import http from 'node:http';
      // Sends until the answer to text comes (UDP may drop a datagram; a late answer to an earlier resend is skipped).
      const ask = (socket, text, send) => new Promise((resolve) => {
        const timer = setInterval(send, 200);
        const onMessage = (m) => {
          if (!m.toString().startsWith('udp:' + text + ' ')) return;
          clearInterval(timer);
          socket.off('message', onMessage);
          resolve(m.toString());
        };
        socket.on('message', onMessage);
        send();
      });
      const a = dgram.createSocket('udp4');
      const b = dgram.createSocket('udp4');
      const c = dgram.createSocket('udp6');
      await new Promise((r) => b.connect(53, '10.0.0.53', r));
      // A UDP server binding all interfaces on a fixed port gets the pod address, as a TCP server does.
      const server = dgram.createSocket('udp4');
      await new Promise((r) => server.bind(45679, r));
      console.log(JSON.stringify([
        await ask(a, 'by name', () => a.send('by name', 53, 'dns.demo')),
        await ask(a, 'by offset', () => a.send(Buffer.from('xby offsetx'), 1, 9, 53, 'dns.demo.svc.cluster.local')),
        await ask(b, 'connected', () => b.send('connected')),
        await ask(c, 'udp6', () => c.send('udp6', 53, 'dns')),
        // http, not fetch: fetch refuses port 53 (a "bad port" in the Fetch standard).
        await new Promise((resolve, reject) => http.get('http://dns.demo:53/', (res) => { let t = ''; res.on('data', (d) => (t += d)); res.on('end', () => resolve(t)); }).on('error', reject)),
        server.address().address,
      ]));
      for (const s of [a, b, c, server]) s.close();`);
    // A connected socket and a TCP connection come from the pod's address (ClientIP affinity tells pods apart).
    expect(JSON.parse(out)).toEqual([
      'udp:by name from 127.0.0.1',
      'udp:by offset from 127.0.0.1',
      'udp:connected from 127.9.2.1',
      'udp:udp6 from 127.0.0.1',
      '127.9.2.1',
      '127.9.2.1',
    ]);
  });

  it('resolves a headless Service to all its endpoints and a StatefulSet pod name to its address, and connects by that name', async () => {
    const out = await inPod(
      `
      import dns from 'node:dns';
      import http from 'node:http';
      const addresses = async (name) => (await dns.promises.lookup(name, { all: true })).map((a) => a.address).sort();
      const get = (url) => new Promise((resolve, reject) => http.get(url, (res) => { let b = ''; res.on('data', (d) => (b += d)); res.on('end', () => resolve(b)); }).on('error', reject));
      const [p0, p1] = process.argv.slice(1);
      console.log(JSON.stringify({
        all: [await addresses('etcd.demo'), await addresses('etcd.demo.svc.cluster.local'), await addresses('etcd')],
        one: (await dns.promises.lookup('etcd.demo.svc')).address,
        callback: await new Promise((r) => dns.lookup('etcd', { all: true }, (err, all) => r(err ? err.code : all.length))),
        pods: [
          (await dns.promises.lookup('etcd-0.etcd.demo.svc.cluster.local')).address,
          (await dns.promises.lookup('etcd-1.etcd.demo.svc')).address,
          (await dns.promises.lookup('etcd-0.etcd')).address,
          (await dns.promises.lookup('127-9-3-2.demo.pod.cluster.local')).address,
          await dns.promises.lookup('etcd-7.etcd.demo.svc.cluster.local').then((a) => a.address, (err) => err.code),
        ],
        resolve4: [(await dns.promises.resolve4('etcd.demo.svc.cluster.local')).sort(), await new Promise((r) => dns.resolve4('etcd-1.etcd', (err, a) => r(err ? err.code : a)))],
        bodies: [
          await (await fetch('http://etcd-0.etcd.demo.svc.cluster.local:' + p0 + '/')).text(),
          await get('http://etcd-1.etcd:' + p1 + '/'),
          // The pod's own address and port, as is: the pod listens there.
          await get('http://127.9.3.1:' + p0 + '/'),
        ],
      }));`,
      [String(etcdPorts[0]), String(etcdPorts[1])],
    );
    const both = ['127.9.3.1', '127.9.3.2'];
    const result = JSON.parse(out);
    expect(result).toEqual({
      all: [both, both, both],
      one: result.one,
      callback: 2,
      pods: ['127.9.3.1', '127.9.3.2', '127.9.3.1', '127.9.3.2', 'ENOTFOUND'],
      resolve4: [both, ['127.9.3.2']],
      bodies: ['etcd-0 on 127.9.3.1', 'etcd-1', 'etcd-0 on 127.9.3.1'],
    });
    expect(both).toContain(result.one);
  });

  it('resolves an ExternalName Service like its external name (a CNAME) and connects by its name there', async () => {
    const out = await inPod(
      `
      import dns from 'node:dns';
      console.log(JSON.stringify([
        (await dns.promises.lookup('ext.demo', { family: 4 })).address,
        (await dns.promises.lookup('ext.demo.svc.cluster.local', { all: true, family: 4 })).map((a) => a.address),
        await new Promise((r) => dns.lookup('ext', 4, (err, address) => r(err ? err.code : address))),
        await dns.promises.resolveCname('ext.demo.svc.cluster.local'),
        await new Promise((r) => dns.resolve('ext.demo', 'CNAME', (err, names) => r(err ? err.code : names))),
        await dns.promises.resolveCname('hello.demo.svc.cluster.local').catch((err) => err.code),
        await (await fetch('http://ext.demo.svc:' + process.argv[1] + '/')).text(),
      ]));`,
      [String(ports[0])],
    );
    expect(JSON.parse(out)).toEqual([
      '127.0.0.1',
      ['127.0.0.1'],
      '127.0.0.1',
      ['localhost'],
      ['localhost'],
      'ENODATA',
      'hello',
    ]);
  });

  it('answers SRV records of named ports: the Service for a ClusterIP one, each endpoint for a headless one', async () => {
    const out = await inPod(`
      import dns from 'node:dns';
      import { Resolver } from 'node:dns/promises';
      const byName = (records) => records.sort((a, b) => a.name.localeCompare(b.name));
      console.log(JSON.stringify([
        byName(await dns.promises.resolveSrv('_peer._tcp.etcd.demo.svc.cluster.local')),
        byName(await new Promise((r, j) => new dns.Resolver().resolveSrv('_peer._tcp.etcd', (err, records) => (err ? j(err) : r(records))))),
        await new Resolver().resolve('_http._tcp.hello.demo.svc.cluster.local', 'SRV'),
        await new Promise((r) => dns.resolveSrv('_dns._udp.dns.demo.svc.cluster.local', (err, records) => r(err ? err.code : records))),
        await dns.promises.resolveSrv('_http._udp.hello.demo.svc.cluster.local').catch((err) => err.code),
        await dns.promises.resolve4('hello'),
      ]));`);
    const peers = [
      { name: 'etcd-0.etcd.demo.svc.cluster.local', port: etcdPorts[0], priority: 0, weight: 50 },
      { name: 'etcd-1.etcd.demo.svc.cluster.local', port: etcdPorts[1], priority: 0, weight: 50 },
    ];
    expect(JSON.parse(out)).toEqual([
      peers,
      peers,
      [{ name: 'hello.demo.svc.cluster.local', port: 80, priority: 0, weight: 100 }],
      [{ name: 'dns.demo.svc.cluster.local', port: 53, priority: 0, weight: 100 }],
      'ENOTFOUND',
      ['10.0.0.12'],
    ]);
  });

  it('sees Services the proxy adds after the program started', async () => {
    let started!: () => void;
    const ready = new Promise<void>((resolve) => (started = resolve));
    const program = inPod(
      `
      import dns from 'node:dns';
      const lookup = () => dns.promises.lookup('late.demo.svc').then((a) => a.address, () => undefined);
      const before = await lookup();
      console.error('ready');
      let after;
      for (let i = 0; i < 200 && !after; i++) { await new Promise((r) => setTimeout(r, 50)); after = await lookup(); }
      const body = await (await fetch('http://late.demo.svc:8080/')).text();
      console.log(JSON.stringify([before ?? null, after, body]));`,
      [],
      (text) => text.includes('ready') && started(),
    );
    // The program looked the name up once (and found nothing) before the proxy adds the Service.
    await Promise.race([ready, program]);
    await writeFile(
      `${file}.tmp`,
      servicesJson([
        {
          namespace: 'demo',
          name: 'late',
          type: 'ClusterIP',
          clusterIP: '10.0.0.40',
          host: '127.0.0.1',
          ports: [{ name: 'http', protocol: 'TCP', port: 8080, localPort: ports[2] }],
        },
      ]),
    );
    await rename(`${file}.tmp`, file);
    expect(JSON.parse(await program)).toEqual([null, '10.0.0.40', 'late']);
  });
});

describe('pod addresses', () => {
  it('counts through the /16 skipping .0 and .255', () => {
    expect(podAddress('127.42.0.0/16', 1)).toBe('127.42.0.1');
    expect(podAddress('127.42.0.0/16', 254)).toBe('127.42.0.254');
    expect(podAddress('127.42.0.0/16', 255)).toBe('127.42.1.1');
    expect(() => podAddress('10.0.0.0/16', 1)).toThrow(/loopback/);
  });

  it('splits a cluster /16 into one /20 per node and counts within a node slice', () => {
    expect(nodePodCIDRs('127.42.0.0/16', 1)).toEqual(['127.42.0.0/16']);
    expect(nodePodCIDRs('127.42.0.0/16', 3)).toEqual(['127.42.0.0/20', '127.42.16.0/20', '127.42.32.0/20']);
    expect(() => nodePodCIDRs('127.42.0.0/16', 17)).toThrow(/1 to 16 nodes/);
    expect(podAddressCount('127.42.16.0/20')).toBe(16 * 254);
    expect(podAddress('127.42.16.0/20', 1)).toBe('127.42.16.1');
    expect(podAddress('127.42.16.0/20', 16 * 254)).toBe('127.42.31.254');
    expect(() => podAddress('127.42.16.0/20', 16 * 254 + 1)).toThrow(/no address/);
    expect(inPodCIDR('127.42.16.0/20', '127.42.31.7')).toBe(true);
    expect(inPodCIDR('127.42.16.0/20', '127.42.32.7')).toBe(false);
    expect(inPodCIDR('127.42.0.0/16', '127.42.200.7')).toBe(true);
    expect(() => podAddress('127.42.8.0/20', 1)).toThrow(/loopback/);
  });

  it('reads CIDRs and addresses as Go does (the one CIDR implementation of @gardener-ts/api)', () => {
    // Leading zeros are not an IPv4 address for Go's net.ParseIP / ParseCIDR.
    expect(inPodCIDR('127.42.0.0/16', '127.042.0.5')).toBe(false);
    expect(inPodCIDR('127.42.0.0/16', '127.42.0.05')).toBe(false);
    expect(() => podAddress('127.042.0.0/16', 1)).toThrow(/loopback/);
    expect(inPodCIDR('127.42.0.0/16', '127.42.0.0')).toBe(false);
    expect(inPodCIDR('127.42.0.0/16', '127.42.3.255')).toBe(false);
    expect(() => podAddress('127.42.0.0/16', 1.5)).toThrow(/no address/);
  });
});
