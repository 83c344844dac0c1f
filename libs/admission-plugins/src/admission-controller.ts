// gardener-admission-controller's start (apps/admission): the admission chain served as webhooks, with a serving
// certificate from `server.webhooks.tls.serverCertDir` (a mounted Secret) or generated for the Service the chart's
// webhook configurations point at, whose CA is then written into those configurations' caBundle.
import { access, mkdtemp, rm } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AdmissionControllerConfiguration } from '@gardener-ts/component-config';
import { ApiClient, type ComponentContext } from '@gardener-ts/controller-runtime';
import { clientListers } from './listers.js';
import { defaultPlugins } from './plugins/index.js';
import { resourceSizeValidator } from './plugins/resource-size.js';
import { injectCABundle, configuredService } from './webhook/ca-bundle.js';
import { ensureServingCertificate, serviceNames, type ServingNames } from './webhook/certificates.js';
import { admissionWebhookServer } from './webhook/server.js';

/**
 * How often the caBundle of the webhook configurations is checked and rewritten when a re-applied chart dropped it
 * (two GETs; short, because until it is back the garden refuses every Gardener object).
 */
const INJECT_INTERVAL_MS = 2_000;

const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );

/**
 * Where the serving certificate lives: the configured directory when it holds one or exists (a writable mount),
 * else a private temporary directory.
 */
async function certificateDirectory(configured: string | undefined): Promise<{ dir: string; temporary: boolean }> {
  if (configured && (await exists(configured))) return { dir: configured, temporary: false };
  return { dir: await mkdtemp(join(tmpdir(), 'gardener-admission-controller-')), temporary: true };
}

/** Starts the admission webhooks of the component; resolves to the function that stops them. */
export async function startAdmissionController(
  ctx: ComponentContext<AdmissionControllerConfiguration>,
): Promise<() => Promise<void>> {
  const { config, log } = ctx;
  const connection = config.gardenClientConnection;
  const client = await ApiClient.create(connection.kubeconfig, {
    rateLimit: { qps: connection.qps, burst: connection.burst },
  });

  const service = await configuredService(client).catch((err: unknown) => {
    log.info({ err }, 'Could not read the webhook configurations; the certificate is made for loopback and this host');
    return undefined;
  });
  const names: ServingNames = service
    ? serviceNames(service)
    : { dns: ['localhost', hostname()], ips: ['127.0.0.1', '::1'] };
  const { dir: certDir, temporary } = await certificateDirectory(config.server.webhooks.tls?.serverCertDir);
  const { caPem, generated } = await ensureServingCertificate(certDir, names);
  log.info({ certDir, generated, service }, 'Webhook serving certificate ready');

  const server = admissionWebhookServer({
    listers: clientListers(client),
    // gardener-admission-controller's own handlers run after gardener-apiserver's chain.
    plugins: [...defaultPlugins, resourceSizeValidator(config.server.resourceAdmissionConfiguration)],
    certDir,
    host: config.server.webhooks.bindAddress || undefined,
    port: config.server.webhooks.port,
    log: log.child({ component: 'webhook' }),
    metrics: ctx.metrics,
  });
  await server.start();
  log.info({ port: server.port, paths: server.paths }, 'Admission webhooks serving');

  // Ready once the webhook configurations trust the CA (the API server can call us). They may not exist yet or the
  // API server may not answer yet; a re-applied chart drops the caBundle again: check it periodically.
  let caInPlace = false;
  ctx.ready.add('webhook-ca-bundle', () => caInPlace);
  let timer: NodeJS.Timeout | undefined;
  let reported: string | undefined;
  let stopped = false;
  const inject = async () => {
    try {
      const found = await injectCABundle(client, caPem);
      caInPlace = true;
      const state = found.join(',');
      if (state !== reported) {
        reported = state;
        log.info(
          { configurations: found },
          found.length > 0 ? 'Webhook configurations trust the serving CA' : 'No webhook configurations to update',
        );
      }
    } catch (err) {
      // Readiness stays once reached: a passing API server hiccup does not make the webhooks unable to serve.
      if (reported !== 'failed')
        log.info({ err }, 'Updating the caBundle of the webhook configurations failed; retrying');
      reported = 'failed';
    }
    if (!stopped && !ctx.signal.aborted) timer = setTimeout(() => void inject(), INJECT_INTERVAL_MS);
  };
  await inject();

  return async () => {
    stopped = true;
    clearTimeout(timer);
    await server.stop();
    client.close();
    if (temporary) await rm(certDir, { recursive: true, force: true });
  };
}
