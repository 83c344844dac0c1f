// kube-proxy flags → flags of `gardener-local proxy` (tools/gardener-local), the substrate's service proxy run against
// the cluster of its KubeProxyConfiguration (`--config`) or `--kubeconfig`. It always publishes its Service table at
// the node path `/var/lib/kube-proxy/services.json` (a path of the Pod's mounts: Gardener's kube-proxy DaemonSet
// mounts the node's `/var/lib/kube-proxy`), where the node's kubelet gives it to the node's Pods. What has no
// counterpart (proxy mode, conntrack, iptables tuning, the cluster CIDR, feature gates, ...) is dropped and reported.
import type { TranslationContext } from './image-map.js';
import { logLevelOf, requiredValue, translateUpstreamArgs, type FlagTranslation } from './upstream-flags.js';

const PROGRAM = 'kube-proxy';

/** Where the local proxy of a node publishes its Service table (a node path). */
export const KubeProxyStateFile = '/var/lib/kube-proxy/services.json';

const TRANSLATIONS: Record<string, FlagTranslation> = {
  config: (f) => ['--config', requiredValue(PROGRAM, f)],
  kubeconfig: (f) => ['--kubeconfig', requiredValue(PROGRAM, f)],
  master: (f) => ['--master', requiredValue(PROGRAM, f)],
  'healthz-bind-address': (f) => ['--healthz-bind-address', requiredValue(PROGRAM, f)],
  v: (f) => logLevelOf(PROGRAM, f),
};

const BOOLEANS = new Set(['init-only', 'cleanup', 'masquerade-all', 'profiling']);

/** Translates kube-proxy's arguments; see the file header for what is dropped. */
export function translateKubeProxyArgs(args: string[], context: TranslationContext): string[] {
  return [...translateUpstreamArgs(args, context, TRANSLATIONS, BOOLEANS), '--state-file', KubeProxyStateFile];
}
