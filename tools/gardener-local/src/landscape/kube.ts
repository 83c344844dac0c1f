// Small kubectl/helm helpers of the local landscape's steps: run a vendored binary, wait for Pods, Seeds and the
// service proxy's local ports. Shared by the garden (`gardener-local up`) and additional seeds (`gardener-local seed`).
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

/** kubectl with one cluster's kubeconfig: arguments and optional stdin, resolves to stdout. */
export type Kubectl = (args: string[], input?: string) => Promise<string>;

/** The vendored kubectl with `kubeconfig`. */
export function kubectlWith(workspace: string, kubeconfig: string): Kubectl {
  const binary = join(workspace, 'tools/k8s-binaries/vendor/kubectl');
  return (args, input) => runTool(binary, ['--kubeconfig', kubeconfig, ...args], { input });
}

/** The vendored helm with its caches below `stateDir`. */
export function helmWith(workspace: string, stateDir: string): (args: string[]) => Promise<string> {
  const binary = join(workspace, 'tools/k8s-binaries/vendor/helm');
  const env = {
    ...process.env,
    HELM_CACHE_HOME: join(stateDir, 'helm/cache'),
    HELM_CONFIG_HOME: join(stateDir, 'helm/config'),
    HELM_DATA_HOME: join(stateDir, 'helm/data'),
  };
  return (args) => runTool(binary, args, { env });
}

/** Runs a vendored binary (kubectl, helm); resolves to stdout, rejects with stderr in the message. */
export function runTool(
  binary: string,
  args: string[],
  options: { input?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number } = {},
): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      binary,
      args,
      { env: options.env ?? process.env, timeout: options.timeoutMs ?? 300_000, maxBuffer: 64 * 1024 * 1024 },
      (err, stdout, stderr) => {
        if (err)
          reject(
            new Error(`${binary.split('/').pop()} ${args.slice(0, 3).join(' ')}: ${(stderr || err.message).trim()}`, {
              cause: err,
            }),
          );
        else resolve(stdout);
      },
    );
    if (options.input !== undefined) child.stdin?.end(options.input);
  });
}

/** Waits until the Seed's conditions are all True. */
export async function waitForSeedConditions(
  kubectl: (args: string[]) => Promise<string>,
  seed: string,
  types: string[],
  timeoutMs = 180_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let seen = 'no Seed yet';
  while (Date.now() < deadline) {
    const text = await kubectl(['get', 'seed', seed, '--ignore-not-found', '-o', 'json']);
    if (text.trim()) {
      const conditions =
        (JSON.parse(text) as { status?: { conditions?: { type: string; status: string; message?: string }[] } }).status
          ?.conditions ?? [];
      const missing = types.filter((t) => conditions.find((c) => c.type === t)?.status !== 'True');
      if (missing.length === 0) return;
      seen = missing.map((t) => `${t}=${conditions.find((c) => c.type === t)?.status ?? 'absent'}`).join(', ');
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`Seed ${seed} not ready after ${timeoutMs / 1000}s (${seen})`);
}

/** The CustomResourceDefinitions of a list whose `Established` condition is not True, by name (pure). */
export function notEstablished(list: {
  items: { metadata: { name: string }; status?: { conditions?: { type: string; status: string }[] } }[];
}): string[] {
  return list.items
    .filter((crd) => !crd.status?.conditions?.some((c) => c.type === 'Established' && c.status === 'True'))
    .map((crd) => crd.metadata.name);
}

/**
 * Waits until every CustomResourceDefinition is Established, reading them all at once every 200 ms (`kubectl wait
 * --for=condition=Established crd --all` takes about 100 ms per CRD even when all are: it syncs an informer for
 * each, one after the other).
 */
export async function waitForEstablishedCRDs(
  kubectl: (args: string[]) => Promise<string>,
  timeoutMs = 120_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const missing = notEstablished(JSON.parse(await kubectl(['get', 'crd', '-o', 'json'])) as never);
    if (missing.length === 0) return;
    if (Date.now() >= deadline)
      throw new Error(`CRDs not established after ${timeoutMs / 1000}s: ${missing.join(', ')}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

interface PodList {
  items: {
    metadata: { name: string; deletionTimestamp?: string };
    status?: {
      conditions?: { type: string; status: string }[];
      containerStatuses?: { ready: boolean; state?: { running?: { startedAt?: string } } }[];
    };
  }[];
}

/**
 * Waits until the selected Pods all run containers started after `since` and are Ready: what "the component is up"
 * means when the landscape resumes, where the objects' status may still be the previous run's.
 */
export async function waitForPodsStartedAndReady(
  kubectl: (args: string[]) => Promise<string>,
  namespace: string,
  selector: string,
  since: number,
  timeoutMs = 180_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let seen = 'no pods yet';
  while (Date.now() < deadline) {
    const pods = (
      JSON.parse(await kubectl(['-n', namespace, 'get', 'pods', '-l', selector, '-o', 'json'])) as PodList
    ).items.filter((p) => !p.metadata.deletionTimestamp);
    const ready = pods.filter(
      (p) =>
        p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') &&
        (p.status.containerStatuses ?? []).every(
          (c) => c.ready && Date.parse(c.state?.running?.startedAt ?? '') >= since,
        ),
    );
    if (pods.length > 0 && ready.length === pods.length) return;
    seen = `${ready.length}/${pods.length} pods ready`;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`pods ${selector} in ${namespace} not ready after ${timeoutMs / 1000}s (${seen})`);
}

/** `<scheme>://host:port` of a Service's first port as the service proxy publishes it on this machine. */
export async function localServiceUrl(
  servicesFile: string,
  namespace: string,
  name: string,
  scheme: string,
): Promise<string> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const table = JSON.parse(await readFile(servicesFile, 'utf8').catch(() => '{"services":[]}')) as {
      services: { namespace: string; name: string; host: string; ports: { localPort: number }[] }[];
    };
    const entry = table.services.find((s) => s.namespace === namespace && s.name === name);
    if (entry?.ports[0]) return `${scheme}://${entry.host}:${entry.ports[0].localPort}`;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`the service proxy publishes no local port for Service ${namespace}/${name} (${servicesFile})`);
}

/** A Namespace manifest (kubectl apply input). */
export function namespaceManifest(name: string): string {
  return JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
}
