// gardenlet: The agent of one seed: seed, shoot, backup and extension controllers and the shoot flows.
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gardenletConfigSpec } from '@gardener-ts/component-config';
import { runComponent } from '@gardener-ts/controller-runtime';
import { resolveAssets, startGardenlet } from '@gardener-ts/gardenlet-controllers';

await runComponent({
  spec: gardenletConfigSpec,
  setup: (ctx) => startGardenlet(ctx, { assets: resolveAssets(dirname(fileURLToPath(import.meta.url))) }),
});
