// `gardener-local shoot create|watch|delete|hibernate|wake-up|kubeconfig`: shoots for a user of the local landscape, the way
// gardenctl and kubectl users expect. A change is sent to the garden API, then the operation is followed live: the
// flow's progress events from NATS (JetStream history first, so a late `watch` sees the tasks already done) when a
// NATS URL is given, and the Shoot itself polled all along (the API is the truth and decides when the watch ends).
import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { KubeConfig, KubernetesObjectApi, type KubernetesObject } from '@kubernetes/client-node';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { createLogUpdate } from 'log-update';
import { parseAllDocuments, stringify } from 'yaml';
import { replayEvents, type Replay } from '@gardener-ts/messaging';
import { issueAdminKubeconfig } from './kubeconfig.js';
import {
  applyProgress,
  applyShoot,
  initialState,
  outcomeOf,
  renderFrame,
  type OperationState,
  type Outcome,
  type ShootView,
} from './progress.js';

const SHOOT_API = { apiVersion: 'core.gardener.cloud/v1beta1', kind: 'Shoot' };
const POLL_MS = 1_000;

interface Options {
  namespace?: string;
  kubeconfig?: string;
  nats?: string;
  output?: 'json' | 'yaml';
  watch: boolean;
  timeoutMs: number;
}

/** Where frames go: redrawn in place on a terminal, a line per change elsewhere (logs, pipes, tests). */
export interface Display {
  frame(text: string): void;
  done(text: string): void;
}

export function displayFor(stream: NodeJS.WriteStream): Display {
  if (stream.isTTY) {
    const update = createLogUpdate(stream);
    return {
      frame: (text) => update(text),
      done: (text) => {
        update(text);
        update.done();
      },
    };
  }
  let last = '';
  return {
    frame: (text) => {
      if (text !== last) stream.write(`${text}\n`);
      last = text;
    },
    done: (text) => stream.write(`${text}\n`),
  };
}

export async function shootCommand(
  args: string[],
  usage: string,
  out: NodeJS.WriteStream = process.stdout,
): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    options: {
      filename: { type: 'string', short: 'f' },
      namespace: { type: 'string', short: 'n' },
      kubeconfig: { type: 'string' },
      nats: { type: 'string' },
      output: { type: 'string', short: 'o' },
      'no-watch': { type: 'boolean' },
      timeout: { type: 'string' },
      expiration: { type: 'string' },
      'seed-kubeconfig': { type: 'string' },
    },
    allowPositionals: true,
    strict: true,
  });
  const [verb, name] = positionals;
  const verbs = ['create', 'watch', 'delete', 'hibernate', 'wake-up', 'kubeconfig'];
  if (!verb || !verbs.includes(verb) || (verb === 'create' ? !values.filename : !name)) {
    process.stderr.write(usage);
    return 2;
  }
  if (values.output !== undefined && values.output !== 'json' && values.output !== 'yaml') {
    process.stderr.write(`--output must be json or yaml; got ${JSON.stringify(values.output)}\n`);
    return 2;
  }
  const options: Options = {
    namespace: values.namespace,
    kubeconfig: values.kubeconfig,
    nats: values.nats ?? process.env.GARDENER_NATS_URL,
    output: values.output as Options['output'],
    watch: !values['no-watch'],
    timeoutMs: parseTimeout(values.timeout ?? '30m'),
  };
  const kc = new KubeConfig();
  if (options.kubeconfig) kc.loadFromFile(options.kubeconfig);
  else kc.loadFromDefault();
  const api = KubernetesObjectApi.makeApiClient(kc);
  const namespace = options.namespace ?? kc.getContextObject(kc.getCurrentContext())?.namespace ?? 'default';

  if (verb === 'kubeconfig') {
    // The client CA comes from the garden; the seed is the fallback for shoots not reconciled since the gardenlet
    // syncs it there (without --seed-kubeconfig the garden cluster, which hosts the seed `local` of this landscape).
    const seed = new KubeConfig();
    if (values['seed-kubeconfig']) seed.loadFromFile(values['seed-kubeconfig']);
    else seed.loadFromString(kc.exportConfig());
    out.write(
      await issueAdminKubeconfig(
        kc,
        seed,
        { namespace, name: name! },
        { validitySeconds: parseTimeout(values.expiration ?? '1h') / 1000, user: 'admin' },
      ),
    );
    return 0;
  }
  // With -o, stdout holds only the final Shoot (for scripts); what was done goes to stderr, as a note.
  const said = (text: string) => (options.output ? process.stderr : out).write(text);
  let target: { namespace: string; name: string };
  let waitFor: 'ready' | 'deleted' = 'ready';
  switch (verb) {
    case 'create': {
      const shoot = await readShoot(values.filename!);
      target = { namespace: options.namespace ?? shoot.metadata?.namespace ?? namespace, name: shoot.metadata!.name! };
      await api.create({ ...shoot, metadata: { ...shoot.metadata, namespace: target.namespace } });
      said(`shoot.core.gardener.cloud/${target.name} created\n`);
      break;
    }
    case 'delete':
      target = { namespace, name: name! };
      // Gardener refuses to delete a Shoot without the confirmation annotation.
      await api.patch(
        { ...SHOOT_API, metadata: { ...target, annotations: { 'confirmation.gardener.cloud/deletion': 'true' } } },
        undefined,
        undefined,
        undefined,
        undefined,
        'application/merge-patch+json' as never,
      );
      await api.delete({ ...SHOOT_API, metadata: target });
      said(`shoot.core.gardener.cloud/${target.name} deleted\n`);
      waitFor = 'deleted';
      break;
    case 'hibernate':
    case 'wake-up':
      target = { namespace, name: name! };
      await api.patch(
        { ...SHOOT_API, metadata: target, spec: { hibernation: { enabled: verb === 'hibernate' } } },
        undefined,
        undefined,
        undefined,
        undefined,
        'application/merge-patch+json' as never,
      );
      said(
        `shoot.core.gardener.cloud/${target.name} patched (hibernation ${verb === 'hibernate' ? 'enabled' : 'disabled'})\n`,
      );
      break;
    default:
      target = { namespace, name: name! };
  }
  if (!options.watch) return 0;
  const { outcome, shoot } = await watchShoot(
    api,
    target,
    waitFor,
    options,
    options.output ? undefined : displayFor(out),
  );
  if (options.output)
    out.write(options.output === 'json' ? `${JSON.stringify(shoot ?? null, null, 2)}\n` : stringify(shoot ?? null));
  return outcome === 'failed' || outcome === 'progressing' ? 1 : 0;
}

async function readShoot(file: string): Promise<KubernetesObject> {
  const text = file === '-' ? await readStdin() : await readFile(file, 'utf8');
  const shoots = parseAllDocuments(text)
    .map((d) => d.toJS() as KubernetesObject | null)
    .filter((o): o is KubernetesObject => o?.kind === 'Shoot');
  if (shoots.length !== 1) throw new Error(`${file} must hold exactly one Shoot; found ${shoots.length}`);
  if (!shoots[0].metadata?.name) throw new Error(`${file}: the Shoot has no metadata.name`);
  return shoots[0];
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** `30m`, `90s`, `2h` or plain seconds. */
function parseTimeout(text: string): number {
  const match = /^(\d+)(s|m|h)?$/.exec(text);
  if (!match) throw new Error(`--timeout must be like 90s, 30m or 2h; got ${JSON.stringify(text)}`);
  return Number(match[1]) * { s: 1_000, m: 60_000, h: 3_600_000 }[(match[2] ?? 's') as 's' | 'm' | 'h'];
}

/**
 * Follows one shoot until `outcomeOf` says it is ready, hibernated, failed or deleted (or the timeout passes): polls
 * the Shoot, and folds NATS progress events in between when a NATS URL is given and reachable.
 */
export async function watchShoot(
  api: KubernetesObjectApi,
  target: { namespace: string; name: string },
  waitFor: 'ready' | 'deleted',
  options: Pick<Options, 'nats' | 'timeoutMs'>,
  display?: Display,
): Promise<{ outcome: Outcome; shoot?: ShootView }> {
  const label = `${target.namespace}/${target.name}`;
  let state: OperationState = initialState();
  const show = () => display?.frame(renderFrame(label, state));
  let nats: NatsConnection | undefined;
  let replay: Replay | undefined;
  if (options.nats) {
    try {
      nats = await connect({ servers: options.nats, timeout: 2_000, name: 'gardener-local-shoot' });
      // History from the last hour first: a late watch sees what the running operation already did.
      replay = await replayEvents(
        nats,
        {
          since: new Date(Date.now() - 3_600_000),
          filter: { kind: 'Shoot', namespace: target.namespace, name: target.name },
        },
        (event) => {
          if (event.payload !== 'operationProgress') return;
          state = applyProgress(state, event.operationProgress);
          show();
        },
      );
    } catch (err) {
      process.stderr.write(
        `NATS at ${options.nats} not usable (${(err as Error).message}); following the Shoot's lastOperation instead\n`,
      );
      await nats?.close().catch(() => undefined);
      nats = undefined;
    }
  }
  const deadline = Date.now() + options.timeoutMs;
  let shoot: ShootView | undefined;
  let outcome: Outcome = 'progressing';
  try {
    for (;;) {
      shoot = await readShootObject(api, target);
      if (shoot) state = applyShoot(state, shoot);
      outcome = outcomeOf(shoot, waitFor);
      if (outcome !== 'progressing' || Date.now() > deadline) break;
      show();
      await new Promise((r) => setTimeout(r, POLL_MS));
    }
  } finally {
    await replay?.stop().catch(() => undefined);
    await nats?.close().catch(() => undefined);
  }
  const summary: Record<Outcome, string> = {
    ready: `shoot ${label} is Ready`,
    hibernated: `shoot ${label} is hibernated`,
    deleted: `shoot ${label} is gone`,
    failed: `shoot ${label} failed${state.lastError ? `: ${state.lastError.description}${state.lastError.codes.length ? ` [${state.lastError.codes.join(', ')}]` : ''}` : ''}`,
    progressing: `shoot ${label}: gave up waiting after ${Math.round(options.timeoutMs / 1000)}s (${state.type ?? '-'} ${state.state ?? 'Pending'} ${state.progress}%)`,
  };
  display?.done(outcome === 'deleted' ? summary.deleted : `${renderFrame(label, state)}\n${summary[outcome]}`);
  return { outcome, shoot };
}

async function readShootObject(
  api: KubernetesObjectApi,
  target: { namespace: string; name: string },
): Promise<ShootView | undefined> {
  try {
    return (await api.read({ ...SHOOT_API, metadata: target })) as unknown as ShootView;
  } catch (err) {
    if ((err as { code?: number }).code === 404) return undefined;
    throw err;
  }
}
