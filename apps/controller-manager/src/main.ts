// gardener-controller-manager: Garden-side controllers: registrations, seed lifecycle, projects, shoot maintenance, backups.
import { controllerManagerConfigSpec } from '@gardener-ts/component-config';
import { runComponent } from '@gardener-ts/controller-runtime';

await runComponent({
  spec: controllerManagerConfigSpec,
  // Controllers are registered here as their issues land; until then the process serves its probes and metrics.
  setup: async ({ log }) => {
    log.info('No controllers are implemented in this component yet');
  },
});
