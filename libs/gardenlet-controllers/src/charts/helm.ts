// Renders the gardener-ts Helm charts the gardenlet deploys (the seed's gardener-resource-manager) with the real helm
// binary the project ships (`helm template`, Helm v4 from tools/k8s-binaries): Go template semantics exactly as Helm
// has them, no re-implementation. Charts are copied to a private directory with the gardener-ts-lib library chart
// and their dependencies built there once, so nothing is written next to the sources.
import { execFile } from 'node:child_process';
import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { parseAllDocuments } from 'yaml';
import type { KubernetesObject } from '@gardener-ts/controller-runtime';

const run = promisify(execFile);
/** The library chart every gardener-ts chart depends on (`file://../gardener-ts-lib`). */
const LIBRARY_CHART = 'gardener-ts-lib';

export interface HelmRendererOptions {
  /** The helm binary. */
  helmBinary: string;
  /** The directory holding the charts (`deploy/charts`). */
  chartsDir: string;
}

/** Parses rendered manifests: every non-empty YAML document, in order. */
export function parseManifests(text: string): KubernetesObject[] {
  return parseAllDocuments(text)
    .map((doc) => {
      if (doc.errors.length > 0) throw new Error(`invalid manifest: ${doc.errors[0]!.message}`);
      return doc.toJSON() as KubernetesObject | null;
    })
    .filter((o): o is KubernetesObject => !!o && typeof o === 'object' && !!o.kind);
}

/** Renders charts with `helm template`. */
export class HelmRenderer {
  private workDir?: Promise<string>;
  private readonly built = new Map<string, Promise<string>>();
  private archives = 0;

  constructor(private readonly options: HelmRendererOptions) {}

  /** The rendered objects of `chart` (a directory name under chartsDir) as release `release` in `namespace`. */
  async render(
    chart: string,
    release: string,
    namespace: string,
    values: Record<string, unknown>,
  ): Promise<KubernetesObject[]> {
    const dir = await this.chartDir(chart);
    const work = await this.work();
    const valuesFile = join(work, `${release}-values.json`);
    // JSON is YAML: helm reads the values file as is.
    await writeFile(valuesFile, JSON.stringify(values));
    const stdout = await this.helm(['template', release, dir, '--namespace', namespace, '--values', valuesFile]);
    return parseManifests(stdout);
  }

  /** The rendered objects of a packaged chart (a `.tgz` archive, e.g. a ControllerDeployment's `helm.rawChart`). */
  async renderArchive(
    archive: Buffer,
    release: string,
    namespace: string,
    values: Record<string, unknown>,
  ): Promise<KubernetesObject[]> {
    const work = await this.work();
    const id = `${release}-${(this.archives += 1)}`;
    const chartFile = join(work, `${id}.tgz`);
    const valuesFile = join(work, `${id}-values.json`);
    await writeFile(chartFile, archive);
    await writeFile(valuesFile, JSON.stringify(values));
    try {
      const stdout = await this.helm([
        'template',
        release,
        chartFile,
        '--namespace',
        namespace,
        '--values',
        valuesFile,
      ]);
      return parseManifests(stdout);
    } finally {
      await rm(chartFile, { force: true });
      await rm(valuesFile, { force: true });
    }
  }

  /** Removes the private copies. */
  async close(): Promise<void> {
    const work = await this.workDir?.catch(() => undefined);
    if (work) await rm(work, { recursive: true, force: true });
  }

  private work(): Promise<string> {
    this.workDir ??= mkdtemp(join(tmpdir(), 'gardenlet-helm-'));
    return this.workDir;
  }

  private chartDir(chart: string): Promise<string> {
    let built = this.built.get(chart);
    if (!built) {
      built = (async () => {
        const work = await this.work();
        const target = join(work, 'charts', chart);
        await cp(join(this.options.chartsDir, chart), target, { recursive: true });
        await cp(join(this.options.chartsDir, LIBRARY_CHART), join(work, 'charts', LIBRARY_CHART), {
          recursive: true,
          force: true,
        });
        await this.helm(['dependency', 'build', target]);
        return target;
      })();
      built.catch(() => this.built.delete(chart));
      this.built.set(chart, built);
    }
    return built;
  }

  private async helm(args: string[]): Promise<string> {
    const work = await this.work();
    try {
      const { stdout } = await run(this.options.helmBinary, args, {
        maxBuffer: 32 * 1024 * 1024,
        env: {
          ...process.env,
          HELM_CACHE_HOME: join(work, 'helm/cache'),
          HELM_CONFIG_HOME: join(work, 'helm/config'),
          HELM_DATA_HOME: join(work, 'helm/data'),
        },
      });
      return stdout;
    } catch (err) {
      const stderr = (err as { stderr?: string }).stderr?.trim();
      throw new Error(`helm ${args[0]} failed${stderr ? `: ${stderr}` : ''}`, { cause: err });
    }
  }
}
