// gardener-admission-controller: Validation and defaulting of the Gardener core API as admission webhooks.
import { startAdmissionController } from '@gardener-ts/admission-plugins';
import { admissionControllerConfigSpec } from '@gardener-ts/component-config';
import { runComponent } from '@gardener-ts/controller-runtime';

await runComponent({
  spec: admissionControllerConfigSpec,
  setup: (ctx) => startAdmissionController(ctx),
});
