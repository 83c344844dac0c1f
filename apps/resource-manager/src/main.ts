// gardener-resource-manager: ManagedResources and the resource-manager's controllers and webhooks.
import { resourceManagerConfigSpec } from '@gardener-ts/component-config';
import { runComponent } from '@gardener-ts/controller-runtime';
import { startResourceManager } from '@gardener-ts/resourcemanager';

await runComponent({
  spec: resourceManagerConfigSpec,
  setup: (ctx) => startResourceManager(ctx),
});
