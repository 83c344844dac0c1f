// A minimal HTTPS client with the admin client certificate, for tests that need exact status codes and bodies.
import { request } from 'node:https';
import type { LocalApiServer } from '../../src/index.js';

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  json(): any;
}

export function rawClient(server: LocalApiServer) {
  const { credentials } = server;
  const send = (
    method: string,
    path: string,
    body?: string | Buffer,
    headers: Record<string, string> = {},
  ): Promise<RawResponse> =>
    new Promise((resolve, reject) => {
      const req = request(
        `${server.url}${path}`,
        {
          method,
          ca: credentials.ca.certPem,
          cert: credentials.admin.certPem,
          key: credentials.admin.keyPem,
          headers: { 'content-type': 'application/json', ...headers },
        },
        (res) => {
          let text = '';
          res.on('data', (d: Buffer) => (text += d.toString()));
          res.on('end', () =>
            resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text, json: () => JSON.parse(text) }),
          );
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  return { send };
}

/** Opens a watch and collects its events until `stop()`. */
export function openWatch(server: LocalApiServer, path: string) {
  const { credentials } = server;
  const events: { type: string; object: any }[] = [];
  let buffer = '';
  const req = request(
    `${server.url}${path}`,
    { ca: credentials.ca.certPem, cert: credentials.admin.certPem, key: credentials.admin.keyPem },
    (res) => {
      res.on('data', (d: Buffer) => {
        buffer += d.toString();
        let nl: number;
        while ((nl = buffer.indexOf('\n')) >= 0) {
          events.push(JSON.parse(buffer.slice(0, nl)));
          buffer = buffer.slice(nl + 1);
        }
      });
    },
  );
  req.on('error', () => {});
  req.end();
  return { events, stop: () => req.destroy() };
}
