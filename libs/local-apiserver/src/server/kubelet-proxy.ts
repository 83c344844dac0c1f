// pods/log, pods/exec, pods/attach and pods/portforward: like kube-apiserver, the server finds the Pod's Node and proxies the
// request to that node's kubelet (status.daemonEndpoints.kubeletEndpoint on the node's InternalIP). Logs are a streamed
// GET; exec/attach/portforward are connection upgrades (WebSocket) piped through unchanged, so the streaming protocol is
// between the client and the kubelet.
import type { IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { Duplex } from 'node:stream';
import { connect as tlsConnect } from 'node:tls';
import { ApiError, errors } from '../api/errors.js';
import type { KeyPair } from '../pki/certs.js';
import type { Registry } from '../registry/registry.js';
import type { SubresourceHandler } from '../http/resource-handler.js';
import type { KubeObject } from '../storage/types.js';
import type { ObjectService } from './objects.js';

export interface KubeletTarget {
  host: string;
  port: number;
  /** The container the request is for (defaulted as kubectl expects). */
  container: string;
}

/**
 * The kubelet serving a Pod's container. The client certificate authenticates the API server to kubelets; with
 * `certificateAuthority` (kube's --kubelet-certificate-authority) the kubelet's serving certificate must be signed by
 * it and name the address dialled (the node's InternalIP), otherwise it is not verified.
 */
export class KubeletLocator {
  constructor(
    private readonly registry: Registry,
    private readonly objects: ObjectService,
    readonly clientCredentials: KeyPair,
    readonly certificateAuthority?: string,
  ) {}

  /** `requestedContainer` false: the request is for the Pod as a whole (port forwarding), no container is chosen. */
  async locate(namespace: string, podName: string, requestedContainer: string | null | false): Promise<KubeletTarget> {
    const pod = await this.objects.get(this.registry.get('', 'v1', 'pods')!, namespace, podName);
    const container = requestedContainer === false ? '' : pickContainer(pod, requestedContainer);
    const nodeName: string | undefined = pod.spec?.nodeName;
    if (!nodeName) throw errors.badRequest(`pod ${podName} does not have a host assigned`);
    let node: KubeObject;
    try {
      node = await this.objects.get(this.registry.get('', 'v1', 'nodes')!, '', nodeName);
    } catch (err) {
      if (err instanceof ApiError && err.code === 404)
        throw new ApiError(503, 'ServiceUnavailable', `node "${nodeName}" of pod ${podName} does not exist`);
      throw err;
    }
    const addresses: { type: string; address: string }[] = node.status?.addresses ?? [];
    const host = (addresses.find((a) => a.type === 'InternalIP') ?? addresses.find((a) => a.type === 'Hostname'))
      ?.address;
    const port: number | undefined = node.status?.daemonEndpoints?.kubeletEndpoint?.Port;
    if (!host || !port) throw new ApiError(503, 'ServiceUnavailable', `node "${nodeName}" has no kubelet endpoint`);
    return { host, port, container };
  }
}

/** kubectl's rules: an explicit container must exist; otherwise the default-container annotation, or the only container. */
function pickContainer(pod: KubeObject, requested: string | null): string {
  const containers: string[] = [
    ...(pod.spec?.initContainers ?? []),
    ...(pod.spec?.containers ?? []),
    ...(pod.spec?.ephemeralContainers ?? []),
  ].map((c: { name: string }) => c.name);
  const name = pod.metadata.name;
  if (requested) {
    if (!containers.includes(requested)) throw errors.badRequest(`container ${requested} is not valid for pod ${name}`);
    return requested;
  }
  const annotated = pod.metadata.annotations?.['kubectl.kubernetes.io/default-container'];
  if (annotated && containers.includes(annotated)) return annotated;
  const regular: string[] = (pod.spec?.containers ?? []).map((c: { name: string }) => c.name);
  if (regular.length === 1) return regular[0];
  throw errors.badRequest(`a container name must be specified for pod ${name}, choose one of: [${regular.join(' ')}]`);
}

const LOG_PARAMETERS = ['follow', 'previous', 'tailLines', 'sinceSeconds', 'sinceTime', 'timestamps', 'limitBytes'];

/** GET pods/log → the kubelet's `/containerLogs/<ns>/<pod>/<container>`, streamed (`follow=true` stays open). */
export function podLogHandler(locator: KubeletLocator): SubresourceHandler {
  return async ({ req, res, route, query }) => {
    if (req.method !== 'GET')
      throw errors.methodNotAllowed('the server does not allow this method on the requested resource');
    const target = await locator.locate(route.namespace, route.name, query.get('container'));
    const forwarded = new URLSearchParams();
    for (const key of LOG_PARAMETERS) if (query.has(key)) forwarded.set(key, query.get(key)!);
    const path = `/containerLogs/${enc(route.namespace)}/${enc(route.name)}/${enc(target.container)}?${forwarded}`;
    await new Promise<void>((resolve, reject) => {
      const upstream = httpsRequest(
        { host: target.host, port: target.port, path, method: 'GET', ...tlsOptions(locator) },
        (answer) => {
          const status = answer.statusCode ?? 502;
          if (status >= 400) {
            collect(answer).then(
              (text) =>
                reject(
                  new ApiError(
                    status,
                    status === 404 ? 'NotFound' : 'BadRequest',
                    kubeletMessage(text) || `kubelet answered ${status}`,
                  ),
                ),
              reject,
            );
            return;
          }
          res.writeHead(200, {
            'content-type': 'text/plain',
            'cache-control': 'no-cache, private',
            'transfer-encoding': 'chunked',
          });
          answer.pipe(res);
          answer.on('end', resolve);
          answer.on('error', reject);
        },
      );
      upstream.on('error', (err) => {
        // kube: the client's error as is, `Get "<kubelet URL>": tls: failed to verify certificate: x509: ...` (500).
        const x509 = verificationError(err, target.host);
        if (x509)
          reject(new ApiError(500, 'InternalError', `Get "https://${target.host}:${target.port}${path}": ${x509}`));
        else
          reject(
            new ApiError(502, 'InternalError', `error talking to the kubelet of pod ${route.name}: ${err.message}`),
          );
      });
      // The client hanging up (kubectl logs -f ended) ends the stream from the kubelet.
      res.on('close', () => upstream.destroy());
      upstream.end();
    });
  };
}

export type UpgradeHandler = (args: {
  req: IncomingMessage;
  socket: Duplex;
  head: Buffer;
  namespace: string;
  name: string;
  subresource: string;
  query: URLSearchParams;
}) => Promise<void>;

/** Upgrades for pods/exec, pods/attach and pods/portforward: piped to the kubelet's `/exec|/attach|/portForward` path. */
export function podStreamUpgradeHandler(locator: KubeletLocator): UpgradeHandler {
  return async ({ req, socket, head, namespace, name, subresource, query }) => {
    const kubeletPath = { exec: 'exec', attach: 'attach', portforward: 'portForward' }[subresource];
    if (!kubeletPath) throw new ApiError(404, 'NotFound', 'the server could not find the requested resource');
    const target = await locator.locate(
      namespace,
      name,
      subresource === 'portforward' ? false : query.get('container'),
    );
    const path =
      subresource === 'portforward'
        ? `/${kubeletPath}/${enc(namespace)}/${enc(name)}?${query}`
        : `/${kubeletPath}/${enc(namespace)}/${enc(name)}/${enc(target.container)}?${query}`;
    const upstream = tlsConnect({ host: target.host, port: target.port, ...tlsOptions(locator) });
    await new Promise<void>((resolve, reject) => {
      upstream.once('secureConnect', resolve);
      upstream.once('error', (err) => {
        // kube's upgrade-aware proxy: 500 "error dialing backend: tls: failed to verify certificate: x509: ...".
        const x509 = verificationError(err, target.host);
        reject(
          x509
            ? new ApiError(500, 'InternalError', `error dialing backend: ${x509}`)
            : new ApiError(502, 'InternalError', `error dialing the kubelet of pod ${name}: ${err.message}`),
        );
      });
    });
    const headers = Object.entries(req.headers)
      .filter(([key]) => !['host', 'authorization', 'content-length'].includes(key))
      .flatMap(([key, value]) => (Array.isArray(value) ? value : [value ?? '']).map((v) => `${key}: ${v}`));
    upstream.write([`GET ${path} HTTP/1.1`, `host: ${target.host}:${target.port}`, ...headers, '', ''].join('\r\n'));
    if (head.length > 0) upstream.write(head);
    upstream.pipe(socket);
    socket.pipe(upstream);
    const close = () => {
      upstream.destroy();
      socket.destroy();
    };
    upstream.on('error', close);
    socket.on('error', close);
    upstream.on('close', close);
    socket.on('close', close);
  };
}

/** exec/attach/portforward without an upgrade: kube-apiserver answers 400 "Upgrade request required". */
export const upgradeRequired: SubresourceHandler = async ({ req }) => {
  req.resume();
  throw errors.badRequest('Upgrade request required');
};

function tlsOptions(locator: KubeletLocator) {
  const credentials = locator.clientCredentials;
  // kube-apiserver without --kubelet-certificate-authority does not verify kubelet serving certificates either (local
  // kubelets without serverTLSBootstrap serve self-signed ones). With it, Node checks the chain and that the
  // certificate names the host dialled (an IP SAN for the node's InternalIP).
  if (locator.certificateAuthority)
    return {
      cert: credentials.certPem,
      key: credentials.keyPem,
      ca: locator.certificateAuthority,
      rejectUnauthorized: true,
    };
  return { cert: credentials.certPem, key: credentials.keyPem, rejectUnauthorized: false };
}

const UNKNOWN_AUTHORITY = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'CERT_SIGNATURE_FAILURE',
]);

/** A failed verification of the kubelet's certificate, worded as Go's crypto/tls and crypto/x509 word it. */
function verificationError(
  err: Error & { code?: string; cert?: { subjectaltname?: string } },
  host: string,
): string | undefined {
  const prefix = 'tls: failed to verify certificate: ';
  if (err.code && UNKNOWN_AUTHORITY.has(err.code)) return `${prefix}x509: certificate signed by unknown authority`;
  if (err.code === 'CERT_HAS_EXPIRED' || err.code === 'CERT_NOT_YET_VALID')
    return `${prefix}x509: certificate has expired or is not yet valid`;
  if (err.code === 'ERR_TLS_CERT_ALTNAME_INVALID') {
    const names = (err.cert?.subjectaltname ?? '')
      .split(', ')
      .map((n) => n.replace(/^(DNS|IP Address):/, ''))
      .filter(Boolean);
    return `${prefix}x509: certificate is valid for ${names.join(', ')}, not ${host}`;
  }
  return undefined;
}

function enc(segment: string): string {
  return encodeURIComponent(segment);
}

async function collect(stream: AsyncIterable<Buffer>): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return Buffer.concat(chunks).toString('utf8');
}

// A kubelet error body is a metav1.Status (ours) or plain text (others): the client sees only its message.
function kubeletMessage(text: string): string {
  try {
    const status = JSON.parse(text) as { kind?: string; message?: unknown };
    if (status.kind === 'Status' && typeof status.message === 'string') return status.message;
  } catch {
    // plain text
  }
  return text.trim();
}
