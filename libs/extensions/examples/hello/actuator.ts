// The "hello" extension's actuator: for an Extension of type `hello` it writes a ConfigMap `hello-greeting` and a
// Deployment `hello-server` into the shoot namespace. It uses only @gardener-ts/extensions' public API.
//
//   apiVersion: extensions.gardener.cloud/v1alpha1
//   kind: Extension
//   metadata: { name: hello, namespace: shoot--dev--demo }
//   spec:
//     type: hello
//     providerConfig: { greeting: Hello from the seed }
import { CodedError, Kinds, isNotFound, type ConfigMap, type Workload } from '@gardener-ts/controller-runtime';
// eslint-disable-next-line @nx/enforce-module-boundaries -- by package name on purpose: the sample uses only the public API
import {
  RequeueAfterError,
  type Actuator,
  type ActuatorContext,
  type ActuatorResult,
  type ExtensionObject,
} from '@gardener-ts/extensions';

/** The extension type this sample serves. */
export const HelloType = 'hello';
/** The ConfigMap the actuator writes into the shoot namespace. */
export const GreetingConfigMap = 'hello-greeting';
/** The Deployment the actuator writes (its health is reported as `ControlPlaneHealthy`). */
export const HelloServer = 'hello-server';
/** While the ConfigMap carries this annotation, a normal deletion waits; a force deletion does not. */
export const InUseAnnotation = 'hello.extensions.example.com/in-use';

/** What a user writes into `spec.providerConfig`. */
export interface HelloConfig {
  greeting: string;
}

/** What the extension keeps in `status.state`, so a restore on another seed greets exactly as before. */
export type HelloState = {
  greeting: string;
  /** When the greeting was first written; survives migration. */
  since: string;
};

/** Reads `spec.providerConfig`; a missing or too long greeting is a configuration problem (not retried by Gardener). */
export function helloConfig(ext: ExtensionObject): HelloConfig {
  const greeting = (ext.spec.providerConfig as { greeting?: unknown } | undefined)?.greeting;
  if (typeof greeting !== 'string' || greeting.length === 0 || greeting.length > 253) {
    throw new CodedError(
      `spec.providerConfig.greeting of Extension ${ext.metadata?.namespace}/${ext.metadata?.name} must be a string of 1 to 253 characters`,
      ['ERR_CONFIGURATION_PROBLEM'],
    );
  }
  return { greeting };
}

/** The hello actuator. `now` is injectable for tests. */
export class HelloActuator implements Actuator {
  constructor(private readonly now: () => Date = () => new Date()) {}

  async reconcile(ctx: ActuatorContext, ext: ExtensionObject): Promise<ActuatorResult> {
    const { greeting } = helloConfig(ext);
    const saved = ext.status?.state as HelloState | undefined;
    const state: HelloState = {
      greeting,
      since: saved?.greeting === greeting ? saved.since : this.now().toISOString(),
    };
    await this.write(ctx, ext, state);
    return { state, providerStatus: { greeted: ctx.cluster?.shoot.metadata?.name ?? 'unknown shoot' } };
  }

  async delete(ctx: ActuatorContext, ext: ExtensionObject): Promise<void> {
    const namespace = ext.metadata?.namespace ?? '';
    const cm = await ctx.client
      .get(Kinds.ConfigMap, { namespace, name: GreetingConfigMap })
      .catch((err: unknown) => (isNotFound(err) ? undefined : Promise.reject(err)));
    if (cm?.metadata?.annotations?.[InUseAnnotation] === 'true') {
      throw new RequeueAfterError(`ConfigMap ${namespace}/${GreetingConfigMap} is still in use`, 1000);
    }
    await this.remove(ctx, namespace);
  }

  async forceDelete(ctx: ActuatorContext, ext: ExtensionObject): Promise<void> {
    await this.remove(ctx, ext.metadata?.namespace ?? '');
  }

  /** Leaves the seed: everything the extension wrote lives in the seed, so it goes; the state travels in the status. */
  async migrate(ctx: ActuatorContext, ext: ExtensionObject): Promise<ActuatorResult> {
    await this.remove(ctx, ext.metadata?.namespace ?? '');
    return ext.status?.state ? { state: ext.status.state } : {};
  }

  /** Writes the greeting again from the saved state, keeping its `since`. */
  async restore(ctx: ActuatorContext, ext: ExtensionObject): Promise<ActuatorResult> {
    const saved = ext.status?.state as HelloState | undefined;
    if (!saved) return this.reconcile(ctx, ext);
    const { greeting } = helloConfig(ext);
    const state: HelloState = { greeting, since: saved.since };
    await this.write(ctx, ext, state);
    return { state };
  }

  private async write(ctx: ActuatorContext, ext: ExtensionObject, state: HelloState): Promise<void> {
    const namespace = ext.metadata?.namespace ?? '';
    const owner = { 'app.kubernetes.io/managed-by': 'gardener-extension-hello' };
    const configMap: ConfigMap = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: GreetingConfigMap, namespace, labels: owner },
      data: { greeting: state.greeting, since: state.since },
    };
    const server: Workload = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: HelloServer, namespace, labels: owner },
      spec: {
        replicas: 1,
        selector: { matchLabels: { app: HelloServer } },
        template: {
          metadata: { labels: { app: HelloServer } },
          spec: {
            containers: [
              {
                name: 'server',
                image: 'registry.k8s.io/pause:3.10',
                env: [{ name: 'GREETING', value: state.greeting }],
              },
            ],
          },
        },
      },
    };
    for (const obj of [configMap, server]) {
      await ctx.client.patch(
        Kinds[obj.kind as 'ConfigMap' | 'Deployment'],
        { namespace, name: obj.metadata!.name! },
        {
          type: 'apply',
          patch: obj as unknown as Record<string, unknown>,
          fieldManager: 'gardener-extension-hello',
          force: true,
        },
      );
    }
  }

  private async remove(ctx: ActuatorContext, namespace: string): Promise<void> {
    for (const [kind, name] of [
      [Kinds.ConfigMap, GreetingConfigMap],
      [Kinds.Deployment, HelloServer],
    ] as const) {
      await ctx.client
        .delete(kind, { namespace, name })
        .catch((err: unknown) => (isNotFound(err) ? undefined : Promise.reject(err)));
    }
  }
}
