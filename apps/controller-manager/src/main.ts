// gardener-controller-manager: the garden-side controllers (CSR approval, ControllerRegistrations, seed lifecycle, Projects).
import { controllerManagerConfigSpec } from '@gardener-ts/component-config';
import { runComponent } from '@gardener-ts/controller-runtime';
import { startControllerManager } from '@gardener-ts/controllermanager';

await runComponent({
  spec: controllerManagerConfigSpec,
  setup: (ctx) => startControllerManager(ctx),
});
