// gardenlet: The agent of one seed: seed, shoot, backup and extension controllers and the shoot flows.
import { gardenletConfigSpec } from '@gardener-ts/component-config';
import { runComponent } from '@gardener-ts/controller-runtime';

await runComponent({
  spec: gardenletConfigSpec,
  // Controllers are registered here as their issues land; until then the process serves its probes and metrics.
  setup: async ({ log }) => {
    log.info('No controllers are implemented in this component yet');
  },
});
