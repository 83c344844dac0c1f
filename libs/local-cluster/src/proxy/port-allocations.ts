// Local ports of Service ports, kept in a JSON file so that a Service keeps its port across proxy restarts and clients
// (and people) can look the ports up; beside them the DNS records of the cluster's record ConfigMaps (dns-records.ts).
// Written atomically (temp file + rename): a crash never leaves half a file.
import { existsSync, readFileSync } from 'node:fs';
import { rename, writeFile } from 'node:fs/promises';
import type { DNSRecordEntry } from './dns-records.js';

export interface ServicePortEntry {
  /** Service port name, or the port number as text when unnamed. */
  name: string;
  /** TCP or UDP: a Service may have 53/TCP and 53/UDP, each with its own local port. */
  protocol: string;
  /** The Service's own port (spec.ports[].port). */
  port: number;
  /** Where the proxy listens on 127.0.0.1 for it. */
  localPort: number;
  nodePort?: number;
  /**
   * TCP ports of Services without ClientIP affinity: the ready endpoints, where the pod network preload connects
   * directly (as kube-proxy's iptables rules send a connection to an endpoint without a process in between).
   */
  backends?: { host: string; port: number }[];
}

/** A port of an endpoint of a headless Service, as its EndpointSlice has it (the name is '' when unnamed). */
export interface EndpointPortEntry {
  name: string;
  protocol: string;
  port: number;
}

/** A ready endpoint of a headless Service: what the pod network preload answers DNS questions with. */
export interface EndpointEntry {
  addresses: string[];
  /** endpoint.hostname: a pod's hostname when its subdomain is the Service (StatefulSet pods). */
  hostname?: string;
  /** The target Pod's name. */
  pod?: string;
  ports: EndpointPortEntry[];
}

export interface ServiceEntry {
  namespace: string;
  name: string;
  type: string;
  /** "None" for a headless Service, absent for an ExternalName one. */
  clusterIP?: string;
  host: string;
  /** The proxied ports; none for headless and ExternalName Services. */
  ports: ServicePortEntry[];
  /** ExternalName Services: spec.externalName (a DNS CNAME). */
  externalName?: string;
  /** Headless Services: the ready endpoints (not-ready ones too with publishNotReadyAddresses). */
  endpoints?: EndpointEntry[];
}

export class PortAllocations {
  private entries = new Map<string, ServiceEntry>();
  private dnsRecords: DNSRecordEntry[] = [];
  private writing: Promise<void> = Promise.resolve();

  constructor(private readonly file: string) {
    if (existsSync(file)) {
      const parsed = JSON.parse(readFileSync(file, 'utf8')) as {
        services?: ServiceEntry[];
        records?: DNSRecordEntry[];
      };
      for (const entry of parsed.services ?? []) this.entries.set(key(entry.namespace, entry.name), entry);
      this.dnsRecords = parsed.records ?? [];
    }
  }

  /** Replaces the DNS records (written only when they changed). */
  setRecords(records: DNSRecordEntry[]): Promise<void> {
    if (JSON.stringify(records) === JSON.stringify(this.dnsRecords)) return this.writing;
    this.dnsRecords = records;
    return this.save();
  }

  /** The local port a Service port had before (a restart), if any. */
  previous(namespace: string, name: string, portName: string, protocol: string): number | undefined {
    return this.entries.get(key(namespace, name))?.ports.find((p) => p.name === portName && p.protocol === protocol)
      ?.localPort;
  }

  get(namespace: string, name: string): ServiceEntry | undefined {
    return this.entries.get(key(namespace, name));
  }

  set(entry: ServiceEntry): Promise<void> {
    this.entries.set(key(entry.namespace, entry.name), entry);
    return this.save();
  }

  remove(namespace: string, name: string): Promise<void> {
    if (!this.entries.delete(key(namespace, name))) return this.writing;
    return this.save();
  }

  all(): ServiceEntry[] {
    return [...this.entries.values()];
  }

  private save(): Promise<void> {
    const services = this.all().sort((a, b) => key(a.namespace, a.name).localeCompare(key(b.namespace, b.name)));
    const text =
      JSON.stringify({ services, ...(this.dnsRecords.length ? { records: this.dnsRecords } : {}) }, null, 2) + '\n';
    this.writing = this.writing.then(async () => {
      await writeFile(`${this.file}.tmp`, text);
      await rename(`${this.file}.tmp`, this.file);
    });
    return this.writing;
  }
}

function key(namespace: string, name: string): string {
  return `${namespace}/${name}`;
}
