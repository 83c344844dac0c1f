// provider-local registered and installed the Gardener way (ARCHITECTURE.md "The local landscape", step 3): the chart
// deploy/charts/provider-local packaged with the real helm into a ControllerDeployment's `helm.rawChart`, the
// ControllerRegistration beside it (policy Always, as in Gardener's local setup), and then what Gardener does by
// itself: the controller-manager creates the seed's ControllerInstallation, the gardenlet renders the chart into a
// ManagedResource, the seed's gardener-resource-manager applies it. The builders and the installation's readiness are
// pure; the step body only applies and polls with kubectl.
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'yaml';

/** The name of provider-local's ControllerRegistration and ControllerDeployment. */
export const PROVIDER_LOCAL = 'provider-local';

/** Where Gardener's provider-local keeps backup buckets (the chart's mount path of the `backup-buckets` volume). */
export const BACKUP_BUCKETS_MOUNT_PATH = '/etc/gardener/local-backupbuckets';

/** What the ControllerDeployment of provider-local is made of. */
export interface ProviderLocalDeploymentOptions {
  /** The packaged chart (`helm package` output, a .tgz). */
  rawChart: Buffer;
  /** The host directory holding the backup buckets (the landscape's data dir, never the real /etc). */
  backupBucketsDir: string;
  /** Image of the extension; the chart's default (gardener-ts/provider-local:<appVersion>) when not set. */
  image?: { repository?: string; tag?: string };
}

/**
 * The `core.gardener.cloud/v1` ControllerDeployment `provider-local`: the chart inline (`helm.rawChart`, base64) and
 * the values of local mode — the backup buckets' hostPath in the landscape's data dir. The gardenlet adds Gardener's
 * `gardener.*` values (the seed's name, spec, labels) when it renders the chart.
 */
export function providerLocalControllerDeployment(options: ProviderLocalDeploymentOptions): Record<string, unknown> {
  const values: Record<string, unknown> = {
    extraVolumes: [{ name: 'backup-buckets', hostPath: { path: options.backupBucketsDir, type: 'DirectoryOrCreate' } }],
  };
  if (options.image) values.image = { ...options.image };
  return {
    apiVersion: 'core.gardener.cloud/v1',
    kind: 'ControllerDeployment',
    metadata: { name: PROVIDER_LOCAL },
    helm: { rawChart: options.rawChart.toString('base64'), values },
  };
}

/** The condition of a ControllerInstallation as far as the step reads it. */
interface Condition {
  type: string;
  status: string;
  reason?: string;
  message?: string;
}

/** A ControllerInstallation as far as the step reads it. */
export interface InstallationObject {
  metadata: { name: string; deletionTimestamp?: string };
  spec: { registrationRef?: { name?: string }; seedRef?: { name?: string } };
  status?: { conditions?: Condition[] };
}

/** Where the installation of a registration on a seed stands. */
export interface InstallationState {
  /** The ControllerInstallation's name, once the controller-manager created it. */
  name?: string;
  /** Whether every wanted condition is True. */
  ready: boolean;
  /** What is missing, for the step's timeout message. */
  detail: string;
}

/** The state of `registration`'s ControllerInstallation on `seed` from a ControllerInstallation list: `conditions` True? */
export function installationState(
  installations: readonly InstallationObject[],
  registration: string,
  seed: string,
  conditions: readonly string[] = ['Installed', 'Healthy'],
): InstallationState {
  const installation = installations.find(
    (i) =>
      i.spec.registrationRef?.name === registration && i.spec.seedRef?.name === seed && !i.metadata.deletionTimestamp,
  );
  if (!installation) return { ready: false, detail: `no ControllerInstallation of ${registration} for seed ${seed}` };
  const name = installation.metadata.name;
  const pending = conditions
    .map((type) => ({ type, condition: installation.status?.conditions?.find((c) => c.type === type) }))
    .filter(({ condition }) => condition?.status !== 'True');
  if (pending.length === 0)
    return { name, ready: true, detail: `ControllerInstallation ${name}: ${conditions.join(', ')}` };
  return {
    name,
    ready: false,
    detail: `ControllerInstallation ${name}: ${pending
      .map(({ type, condition }) =>
        condition
          ? `${type}=${condition.status} (${condition.reason ?? ''}${condition.message ? `: ${condition.message}` : ''})`
          : `${type} not reported`,
      )
      .join(', ')}`,
  };
}

/** The registration's `spec.deployment.policy` (Gardener's default: OnDemand). */
export function deploymentPolicy(registration: { spec?: { deployment?: { policy?: string } } }): string {
  return registration.spec?.deployment?.policy ?? 'OnDemand';
}

/** What the step needs from the landscape. */
export interface ProviderLocalStepOptions {
  /** The gardener-ts workspace (deploy/charts/provider-local). */
  workspace: string;
  /** The landscape's own directory: the packaged chart and the backup buckets go below it. */
  stateDir: string;
  /** kubectl with the landscape's kubeconfig. */
  kubectl: (args: string[], input?: string) => Promise<string>;
  /** helm with the landscape's helm homes. */
  helm: (args: string[]) => Promise<string>;
  /** Waits until the Pods selected in a namespace run containers started in this run and are Ready. */
  waitForPods: (namespace: string, selector: string) => Promise<void>;
  /** The seed the installation is for. */
  seed: string;
  timeoutMs?: number;
}

/**
 * Packages the chart, applies the ControllerDeployment and the ControllerRegistration and, with policy Always, waits
 * until the seed's ControllerInstallation is Installed and Healthy and provider-local's Pod runs in its extension
 * namespace. Resolves to the checklist's detail.
 */
export async function registerProviderLocal(options: ProviderLocalStepOptions): Promise<string> {
  const { kubectl, helm } = options;
  const chart = join(options.workspace, 'deploy/charts', PROVIDER_LOCAL);
  const packages = join(options.stateDir, 'charts');
  const backupBucketsDir = join(options.stateDir, 'local-backupbuckets');
  await mkdir(packages, { recursive: true });
  await mkdir(backupBucketsDir, { recursive: true });
  // helm 4 packages reproducibly (file modes and times from the sources), so an unchanged chart is the same rawChart
  // and the ControllerInstallation is not rolled on a resumed landscape.
  await helm(['dependency', 'build', chart]);
  const packaged = (await helm(['package', chart, '--destination', packages])).match(/saved it to: (.+\.tgz)/)?.[1];
  if (!packaged) throw new Error(`helm package ${chart}: no archive reported`);
  const deployment = providerLocalControllerDeployment({
    rawChart: await readFile(packaged.trim()),
    backupBucketsDir,
    // The image the substrate's image map runs as dist/apps/provider-local (the tag: the chart's appVersion).
    image: { repository: 'gardener-ts/provider-local' },
  });
  await kubectl(['apply', '--server-side', '--force-conflicts', '-f', '-'], JSON.stringify(deployment));
  const registrationFile = join(chart, 'registration/controllerregistration.yaml');
  const registration = parse(await readFile(registrationFile, 'utf8')) as {
    spec?: { deployment?: { policy?: string } };
  };
  await kubectl(['apply', '--server-side', '--force-conflicts', '-f', registrationFile]);
  const policy = deploymentPolicy(registration);
  if (policy !== 'Always')
    return `registered with policy ${policy}: installed on a seed when one of its shoots needs it`;

  return waitForInstallation(options);
}

/**
 * Waits until provider-local's ControllerInstallation for `seed` is Installed and Healthy and its Pod runs in the
 * extension namespace of the seed cluster (`waitForPods`); resolves to the checklist's detail.
 */
export async function waitForInstallation(
  options: Pick<ProviderLocalStepOptions, 'kubectl' | 'seed' | 'waitForPods' | 'timeoutMs'>,
): Promise<string> {
  const { kubectl } = options;
  const timeoutMs = options.timeoutMs ?? 180_000;
  const deadline = Date.now() + timeoutMs;
  let state: InstallationState = { ready: false, detail: 'not looked yet' };
  while (Date.now() < deadline) {
    const list = JSON.parse(await kubectl(['get', 'controllerinstallations', '-o', 'json'])) as {
      items: InstallationObject[];
    };
    state = installationState(list.items, PROVIDER_LOCAL, options.seed);
    if (state.ready) break;
    await new Promise((r) => setTimeout(r, 500));
  }
  if (!state.ready)
    throw new Error(`provider-local not installed on seed ${options.seed} after ${timeoutMs / 1000}s: ${state.detail}`);
  const namespace = `extension-${state.name}`;
  await options.waitForPods(namespace, `app.kubernetes.io/name=${PROVIDER_LOCAL}`);
  return `ControllerInstallation ${state.name} Installed, Healthy; pod running in ${namespace}`;
}
