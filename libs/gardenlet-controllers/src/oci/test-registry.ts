// Test support: an in-process OCI registry (node:http on 127.0.0.1) serving Helm chart artifacts as the distribution
// API does — `/v2/`, manifests by tag and digest (HEAD and GET), blobs — with no authentication, basic authentication, or
// a bearer challenge whose realm `/token` hands out pull-scoped tokens for basic credentials. Not exported from the lib.
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { HELM_CHART_LAYER_MEDIA_TYPE, OCI_MANIFEST_MEDIA_TYPE } from './puller.js';

export type TestRegistryAuth = { kind: 'none' } | { kind: 'basic' | 'bearer'; username: string; password: string };

export interface TestRegistry {
  /** `127.0.0.1:<port>`. */
  host: string;
  /** Serves `archive` as `repository:tag`; returns the manifest digest. */
  push(repository: string, tag: string, archive: Buffer, options?: { corruptBlob?: boolean }): string;
  /** Every request line served, e.g. `GET /v2/charts/ext/blobs/sha256:…`. */
  requests: string[];
  close(): Promise<void>;
}

const sha256 = (data: Buffer) => `sha256:${createHash('sha256').update(data).digest('hex')}`;

/** Starts a registry on a free loopback port. */
export async function startTestRegistry(auth: TestRegistryAuth = { kind: 'none' }): Promise<TestRegistry> {
  const manifests = new Map<string, Buffer>(); // `repo:tag` and `repo@digest` → manifest
  const blobs = new Map<string, Buffer>(); // `repo@digest` → blob
  const tokens = new Set<string>();
  const requests: string[] = [];
  let host = '';

  const basicOK = (header: string | undefined) =>
    auth.kind !== 'none' && header === `Basic ${Buffer.from(`${auth.username}:${auth.password}`).toString('base64')}`;

  const authorized = (req: IncomingMessage, repository: string | undefined): boolean => {
    if (auth.kind === 'none') return true;
    const header = req.headers.authorization;
    if (auth.kind === 'basic') return basicOK(header);
    const token = header?.startsWith('Bearer ') ? header.slice('Bearer '.length) : '';
    return tokens.has(`${token}|${repository ?? ''}`) || (repository === undefined && tokens.has(token));
  };

  const challenge = (res: ServerResponse) => {
    res.setHeader(
      'WWW-Authenticate',
      auth.kind === 'basic'
        ? 'Basic realm="test-registry"'
        : `Bearer realm="http://${host}/token",service="test-registry"`,
    );
    res.writeHead(401, { 'Content-Type': 'application/json' }).end('{"errors":[{"code":"UNAUTHORIZED"}]}');
  };

  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', `http://${host}`);
    requests.push(`${req.method} ${url.pathname}`);
    if (url.pathname === '/token' && auth.kind === 'bearer') {
      if (!basicOK(req.headers.authorization)) return void res.writeHead(401).end();
      const scope = url.searchParams.get('scope') ?? '';
      const m = /^repository:(.+):pull$/.exec(scope);
      if (!m || url.searchParams.get('service') !== 'test-registry') return void res.writeHead(400).end();
      const token = `t${tokens.size}`;
      tokens.add(`${token}|${m[1]}`);
      return void res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ token }));
    }
    if (url.pathname === '/v2/') {
      if (auth.kind !== 'none' && !(req.headers.authorization && authorized(req, undefined))) return challenge(res);
      return void res.writeHead(200).end('{}');
    }
    const m = /^\/v2\/(.+)\/(manifests|blobs)\/([^/]+)$/.exec(url.pathname);
    if (!m) return void res.writeHead(404).end();
    const [, repository, what, reference] = m as unknown as [string, string, string, string];
    if (!authorized(req, repository)) return challenge(res);
    const key = reference.startsWith('sha256:') ? `${repository}@${reference}` : `${repository}:${reference}`;
    const body = (what === 'manifests' ? manifests : blobs).get(key);
    if (!body) return void res.writeHead(404, { 'Content-Type': 'application/json' }).end('{"errors":[]}');
    res.writeHead(200, {
      'Content-Type': what === 'manifests' ? OCI_MANIFEST_MEDIA_TYPE : 'application/octet-stream',
      'Content-Length': body.length,
      ...(what === 'manifests' ? { 'Docker-Content-Digest': sha256(body) } : {}),
    });
    res.end(req.method === 'HEAD' ? undefined : body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  host = `127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    host,
    requests,
    push(repository, tag, archive, options = {}) {
      const config = Buffer.from('{}');
      const blobDigest = sha256(archive);
      const manifest = Buffer.from(
        JSON.stringify({
          schemaVersion: 2,
          mediaType: OCI_MANIFEST_MEDIA_TYPE,
          config: {
            mediaType: 'application/vnd.cncf.helm.config.v1+json',
            digest: sha256(config),
            size: config.length,
          },
          layers: [{ mediaType: HELM_CHART_LAYER_MEDIA_TYPE, digest: blobDigest, size: archive.length }],
        }),
      );
      const digest = sha256(manifest);
      manifests.set(`${repository}:${tag}`, manifest);
      manifests.set(`${repository}@${digest}`, manifest);
      const served = options.corruptBlob ? Buffer.from(archive.map((b, i) => (i === 0 ? b ^ 0xff : b))) : archive;
      blobs.set(`${repository}@${blobDigest}`, served);
      blobs.set(`${repository}@${sha256(config)}`, config);
      return digest;
    },
    close: () => new Promise<void>((resolve, reject) => server.close((err) => (err ? reject(err) : resolve()))),
  };
}
