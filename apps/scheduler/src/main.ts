// gardener-scheduler: Binds Shoots to the best Seed.
import { schedulerConfigSpec } from '@gardener-ts/component-config';
import { runComponent } from '@gardener-ts/controller-runtime';

await runComponent({
  spec: schedulerConfigSpec,
  // Controllers are registered here as their issues land; until then the process serves its probes and metrics.
  setup: async ({ log }) => {
    log.info('No controllers are implemented in this component yet');
  },
});
