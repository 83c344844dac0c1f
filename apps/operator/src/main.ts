// gardener-operator: Reconciles the Garden: garden runtime, virtual garden, Gardener control plane, extensions.
import { operatorConfigSpec } from '@gardener-ts/component-config';
import { runComponent } from '@gardener-ts/controller-runtime';

await runComponent({
  spec: operatorConfigSpec,
  // Controllers are registered here as their issues land; until then the process serves its probes and metrics.
  setup: async ({ log }) => {
    log.info('No controllers are implemented in this component yet');
  },
});
