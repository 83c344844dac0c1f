// gardener-extension-provider-local: The local provider extension: every extension kind, machines as local processes.
import { providerLocalConfigSpec } from '@gardener-ts/component-config';
import { runComponent } from '@gardener-ts/controller-runtime';

await runComponent({
  spec: providerLocalConfigSpec,
  // Controllers are registered here as their issues land; until then the process serves its probes and metrics.
  setup: async ({ log }) => {
    log.info('No controllers are implemented in this component yet');
  },
});
