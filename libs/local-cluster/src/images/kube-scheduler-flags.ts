// kube-scheduler flags → flags of `gardener-local scheduler` (tools/gardener-local), the substrate's scheduler run
// against the cluster of its KubeSchedulerConfiguration (`--config`) or `--kubeconfig`. What has a counterpart is
// translated; the rest (delegated authentication and authorization of the metrics endpoint, client CA, feature gates,
// ...) is dropped and reported, so a Pod's log says which settings had no effect.
import type { TranslationContext } from './image-map.js';
import {
  commonComponentTranslations,
  requiredValue,
  translateUpstreamArgs,
  type FlagTranslation,
} from './upstream-flags.js';

const PROGRAM = 'kube-scheduler';

// Flags whose meaning `gardener-local scheduler` has, with how to say them to it.
const TRANSLATIONS: Record<string, FlagTranslation> = {
  ...commonComponentTranslations(PROGRAM),
  config: (f) => ['--config', requiredValue(PROGRAM, f)],
};

const BOOLEANS = new Set(['leader-elect']);

/** Translates kube-scheduler's arguments; see the file header for what is dropped. */
export function translateKubeSchedulerArgs(args: string[], context: TranslationContext): string[] {
  return translateUpstreamArgs(args, context, TRANSLATIONS, BOOLEANS);
}
