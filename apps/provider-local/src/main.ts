// gardener-extension-provider-local: The local provider extension: every extension kind, machines as local processes.
import { providerLocalConfigSpec } from '@gardener-ts/component-config';
import { runComponent } from '@gardener-ts/controller-runtime';
import { startProviderLocal } from '@gardener-ts/providerlocal';

await runComponent({ spec: providerLocalConfigSpec, setup: (ctx) => startProviderLocal(ctx) });
