// gardener-scheduler: binds Shoots to the best Seed. The logic lives in @gardener-ts/scheduling; this is the wiring.
import { schedulerConfigSpec } from '@gardener-ts/component-config';
import { runComponent } from '@gardener-ts/controller-runtime';
import { startScheduler } from '@gardener-ts/scheduling';

await runComponent({
  spec: schedulerConfigSpec,
  setup: (ctx) =>
    startScheduler(ctx, {
      // Another replica may lead now: stop at once rather than schedule alongside it.
      onLostLeadership: () => {
        ctx.log.error('Leadership lost, exiting');
        process.exit(1);
      },
    }),
});
