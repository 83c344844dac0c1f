// A local machine: what a VM with systemd is to Gardener, as one process. It owns the machine's root directory and its
// unit runner; on first boot it executes its user data (the cloud-config provider-local rendered from the provision
// OSC), on later boots it starts the enabled units. gardener-node-agent is a program the machine knows
// (`/opt/bin/gardener-node-agent --config=<node path>`): it runs in the machine's process and shares its unit runner,
// as node-agent shares systemd on a real node — it reads its NodeAgentConfiguration, connects to the shoot with the
// kubeconfig of `clientConnection.kubeconfig` (Gardener's `/var/lib/gardener-node-agent/credentials/kubeconfig`) and
// runs the OperatingSystemConfig, Node, Lease and health check controllers. Without that kubeconfig it first bootstraps
// its client certificate with the bootstrap token (bootstrap.ts).
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { nodeAgentConfigSpec, parseComponentConfig } from '@gardener-ts/component-config';
import { Kinds, Manager } from '@gardener-ts/controller-runtime';
import type { Logger } from '@gardener-ts/logging';
import { addHealthCheckController } from '../controller/healthcheck/add.js';
import { addLeaseController } from '../controller/lease/add.js';
import { addNodeController } from '../controller/node/add.js';
import { SecretNamespace, addOperatingSystemConfigController } from '../controller/operatingsystemconfig/add.js';
import { nodePath } from '../units/paths.js';
import { LocalUnitRunner, type InProcessLaunch, type ProgramLauncher } from '../units/runner.js';
import { applyCloudConfig, parseCloudConfig } from '../userdata/cloud-config.js';
import { httpHealthProbe } from '../controller/healthcheck/reconciler.js';
import { bootstrapNodeAgentKubeconfig, MachineNamePlaceholder } from './bootstrap.js';
import {
  freeLocalPort,
  KubeletBinary,
  localKubeletProgram,
  type LocalKubeletPorts,
  writeKubeletBootstrapKubeconfig,
  type LocalKubeletCommand,
} from './kubelet.js';

/** Where gardener-node-agent's binary is on a Gardener node (its unit's ExecStart). */
export const NodeAgentBinary = '/opt/bin/gardener-node-agent';
/** Gardener's default kubeconfig path of node-agent. */
export const NodeAgentKubeconfigPath = '/var/lib/gardener-node-agent/credentials/kubeconfig';
/** The marker of a machine whose user data ran (cloud-init's "instance" state). */
export const ProvisionedMarker = '/var/lib/cloud/instance/boot-finished';

/** Options of a local machine. */
export interface LocalMachineOptions {
  /** The machine's root directory. */
  rootDir: string;
  /** The machine's name: its hostname and Node name. */
  nodeName: string;
  /** The user data (cloud-config) executed on first boot. */
  userData?: string;
  /**
   * The name of the Machine this machine is (its `<<MACHINE_NAME>>` placeholders in the user data are replaced by it,
   * as machine-controller-manager does when it creates a VM).
   */
  machineName?: string;
  log: Logger;
  /** Further programs the machine knows (by ExecStart path), besides gardener-node-agent. */
  programs?: Record<string, ProgramLauncher>;
  /** How `/opt/bin/kubelet` runs the substrate's kubelet (see kubelet.ts); without it the machine has no kubelet. */
  kubelet?: LocalKubeletCommand;
  /** How long a unit may take to stop; 10 s by default. */
  stopTimeoutMs?: number;
}

/** The value of `--config` / `--config=` in an argument list. */
function configFlag(args: string[]): string | undefined {
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a.startsWith('--config=')) return a.slice('--config='.length);
    if (a === '--config') return args[i + 1];
  }
  return undefined;
}

/** A local machine; see the file header. */
export class LocalMachine {
  readonly units: LocalUnitRunner;
  /** The host ports of the kubelet, chosen at boot. */
  private kubeletPorts?: LocalKubeletPorts;

  constructor(private readonly options: LocalMachineOptions) {
    this.units = new LocalUnitRunner({
      rootDir: options.rootDir,
      programs: {
        ...(options.kubelet ? { [KubeletBinary]: localKubeletProgram(options.kubelet, () => this.ports()) } : {}),
        ...options.programs,
        [NodeAgentBinary]: (args) => this.nodeAgent(args),
      },
      log: options.log,
      ...(options.stopTimeoutMs !== undefined ? { stopTimeoutMs: options.stopTimeoutMs } : {}),
    });
  }

  /** Boots: the user data on first boot, the enabled units afterwards. */
  async boot(): Promise<void> {
    const { rootDir, nodeName, userData, log } = this.options;
    await mkdir(rootDir, { recursive: true });
    if (this.options.kubelet) this.kubeletPorts ??= { healthzPort: await freeLocalPort() };
    await this.writeNodeFile('/etc/hostname', `${nodeName}\n`);
    // What every OS has: Gardener's units read it (`EnvironmentFile=/etc/environment`, not optional).
    const environment = nodePath(rootDir, '/etc/environment');
    if (
      !(await readFile(environment).then(
        () => true,
        () => false,
      ))
    )
      await this.writeNodeFile('/etc/environment', '');
    const marker = nodePath(rootDir, ProvisionedMarker);
    const provisioned = await readFile(marker, 'utf8').then(
      () => true,
      () => false,
    );
    if (provisioned || userData === undefined) {
      log.info({ provisioned }, 'Booting: starting enabled units');
      await this.units.boot();
      return;
    }
    log.info('First boot: executing the user data');
    await this.units.load();
    const machineName = this.options.machineName;
    const config = parseCloudConfig(machineName ? userData.replaceAll(MachineNamePlaceholder, machineName) : userData);
    // Like cloud-init, the user data runs once: failing commands are reported, the machine stays up.
    await applyCloudConfig(config, { rootDir, units: this.units }).catch((err: unknown) =>
      log.error({ err }, 'The user data did not run cleanly'),
    );
    await this.writeNodeFile(ProvisionedMarker, new Date().toISOString());
  }

  /** Stops every unit. */
  async shutdown(): Promise<void> {
    await this.units.stopAll();
  }

  /** Where the kubelet's healthz endpoint is (node-agent's health check asks it); undefined without a kubelet. */
  get kubeletHealthzURL(): string | undefined {
    return this.kubeletPorts && `http://127.0.0.1:${this.kubeletPorts.healthzPort}/healthz`;
  }

  /** The kubelet's host ports; the machine must have booted. */
  private ports(): LocalKubeletPorts {
    if (!this.kubeletPorts) throw new Error(`${KubeletBinary}: the machine has not booted`);
    return this.kubeletPorts;
  }

  private async writeNodeFile(path: string, content: string): Promise<void> {
    const local = nodePath(this.options.rootDir, path);
    await mkdir(dirname(local), { recursive: true });
    await writeFile(local, content);
  }

  /** gardener-node-agent in the machine's process. */
  private nodeAgent(args: string[]): InProcessLaunch {
    const { rootDir, nodeName, log } = this.options;
    return {
      run: async (signal) => {
        const configPath = configFlag(args);
        if (!configPath) throw new Error(`${NodeAgentBinary}: --config is required`);
        const text = await readFile(nodePath(rootDir, configPath), 'utf8');
        const { config } = parseComponentConfig(nodeAgentConfigSpec, text, configPath);
        // Gardener's KubeletBootstrapKubeconfig bootstrapper: the kubelet's TLS bootstrap credentials, first.
        await writeKubeletBootstrapKubeconfig(rootDir, config.apiServer, log.child({ unit: 'gardener-node-agent' }));
        const kubeconfigPath = nodePath(rootDir, config.clientConnection.kubeconfig || NodeAgentKubeconfigPath);
        const kubeconfig = await readFile(kubeconfigPath, 'utf8').catch(() => undefined);
        if (kubeconfig === undefined) {
          // Gardener's node-agent exchanges the bootstrap token for its own client certificate first.
          await bootstrapNodeAgentKubeconfig({
            rootDir,
            kubeconfigPath: config.clientConnection.kubeconfig || NodeAgentKubeconfigPath,
            apiServer: config.apiServer,
            log: log.child({ unit: 'gardener-node-agent' }),
            signal,
          });
        }
        const secretName = config.controllers.operatingSystemConfig.secretName;
        const mgr = await Manager.create({
          log: log.child({ unit: 'gardener-node-agent' }),
          gracefulShutdownTimeoutMs: 5000,
          clusters: {
            shoot: {
              kubeConfig: kubeconfigPath,
              // Node-agent may read only its own Secret and its own Node.
              cache: {
                scopes: [
                  {
                    kind: Kinds.Secret,
                    scope: { namespace: SecretNamespace, fieldSelector: { 'metadata.name': secretName } },
                  },
                  { kind: Kinds.Node, scope: { fieldSelector: { 'metadata.name': nodeName } } },
                ],
              },
            },
          },
        });
        addOperatingSystemConfigController(mgr, { secretName, rootDir, units: this.units, nodeName });
        addNodeController(mgr, { nodeName, units: this.units });
        addLeaseController(mgr, { nodeName });
        addHealthCheckController(mgr, {
          units: this.units,
          ...(this.kubeletHealthzURL ? { probe: httpHealthProbe(this.kubeletHealthzURL) } : {}),
        });
        await mgr.start();
        await new Promise<void>((resolve) => {
          if (signal.aborted) resolve();
          signal.addEventListener('abort', () => resolve(), { once: true });
        });
        await mgr.stop();
      },
    };
  }
}
