// Reading the `networking.resources.gardener.cloud/*` annotations of a Service. Values are JSON as in Gardener;
// a value that does not parse is an error of the Service (reported by the reconciler, retried with back-off).
import type { LabelSelector } from '@gardener-ts/controller-runtime';
import { NetworkingAnnotation, type NetworkPolicyPort, type Service } from './types.js';

const fromPolicyKey = new RegExp(
  `^${escape(NetworkingAnnotation.FromPolicyPrefix)}(.+)${escape(NetworkingAnnotation.FromPolicySuffix)}$`,
);

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

function parseJSON(value: string): unknown {
  try {
    return JSON.parse(value);
  } catch (err) {
    throw new Error(`failed unmarshalling ${value}: ${(err as Error).message}`);
  }
}

/**
 * A JSON list of NetworkPolicy ports. A port given as a string of digits (`"10250"`) is a number (a named port
 * must contain a letter); a missing protocol stays missing (the API server defaults it to TCP).
 */
export function parsePorts(value: string): NetworkPolicyPort[] {
  const parsed = parseJSON(value);
  if (!Array.isArray(parsed)) throw new Error(`failed unmarshalling ${value}: not a list of ports`);
  return parsed.map((p: unknown) => {
    if (typeof p !== 'object' || p === null)
      throw new Error(`failed unmarshalling ${value}: ${JSON.stringify(p)} is not a port`);
    const { port, protocol, endPort } = p as Record<string, unknown>;
    const out: NetworkPolicyPort = {};
    if (protocol !== undefined && protocol !== null) {
      if (typeof protocol !== 'string') throw new Error(`failed unmarshalling ${value}: protocol must be a string`);
      out.protocol = protocol;
    }
    if (port !== undefined && port !== null) {
      if (typeof port === 'number' && Number.isInteger(port)) out.port = port;
      else if (typeof port === 'string') out.port = /^\d+$/.test(port) ? Number(port) : port;
      else throw new Error(`failed unmarshalling ${value}: port must be an integer or a string`);
    }
    if (typeof endPort === 'number') out.endPort = endPort;
    return out;
  });
}

/** The namespace selectors of `networking.resources.gardener.cloud/namespace-selectors` (none if unset). */
export function namespaceSelectorsOf(service: Service): LabelSelector[] {
  const value = service.metadata?.annotations?.[NetworkingAnnotation.NamespaceSelectors];
  if (value === undefined) return [];
  const parsed = parseJSON(value);
  if (parsed === null) return [];
  if (!Array.isArray(parsed) || parsed.some((s) => typeof s !== 'object' || s === null || Array.isArray(s))) {
    throw new Error(`failed unmarshalling ${value}: not a list of label selectors`);
  }
  return parsed as LabelSelector[];
}

/** The `from-<alias>-allowed-ports` annotations: alias → ports, sorted by alias. */
export function fromPolicies(annotations: Record<string, string> | undefined): [alias: string, ports: string][] {
  const result: [string, string][] = [];
  for (const [key, value] of Object.entries(annotations ?? {})) {
    const m = fromPolicyKey.exec(key);
    if (m) result.push([m[1], value]);
  }
  return result.sort(([a], [b]) => a.localeCompare(b));
}
