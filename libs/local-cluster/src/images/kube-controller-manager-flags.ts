// kube-controller-manager flags → flags of `gardener-local controller-manager` (tools/gardener-local), the substrate's
// controller manager run against the cluster of `--kubeconfig`. What has a counterpart is translated; the rest is
// dropped and reported, so a Pod's log says which settings had no effect. Certificate signing passes through: the
// `--cluster-signing-*` CA files (and duration) go to our csrsigning controller, which signs with the shoot's CAs
// the API server trusts. So does `--root-ca-file`: our root-ca-cert-publisher puts that bundle (the shoot's CA, which
// signed its kube-apiserver's serving certificate) into every namespace's `kube-root-ca.crt`. Service account tokens,
// garbage collection and namespace deletion have no flags here: the substrate's API server does those jobs itself,
// so their key file flags are reported as ignored.
import { CONTROLLER_NAMES, OPT_IN_CONTROLLERS } from '../controllers/controller-manager.js';
import { SIGNING_FILE_FLAGS } from '../controllers/csrsigning/signer.js';
import type { TranslationContext } from './image-map.js';
import {
  booleanValue,
  commonComponentTranslations,
  requiredValue,
  translateUpstreamArgs,
  type FlagTranslation,
} from './upstream-flags.js';

const PROGRAM = 'kube-controller-manager';

/** The controllers `gardener-local controller-manager` runs by default: kube-controller-manager's own, no scheduler. */
export const KUBE_CONTROLLER_MANAGER_CONTROLLERS: readonly string[] = CONTROLLER_NAMES.filter(
  (name) => name !== 'scheduler' && !OPT_IN_CONTROLLERS.includes(name),
);

// kube-controller-manager's controller names and their aliases (cmd/kube-controller-manager/names) → ours.
const KUBE_CONTROLLERS: Record<string, string> = {
  'deployment-controller': 'deployment',
  deployment: 'deployment',
  'replicaset-controller': 'replicaset',
  replicaset: 'replicaset',
  'statefulset-controller': 'statefulset',
  statefulset: 'statefulset',
  'daemonset-controller': 'daemonset',
  daemonset: 'daemonset',
  'job-controller': 'job',
  job: 'job',
  'cronjob-controller': 'cronjob',
  cronjob: 'cronjob',
  'endpoints-controller': 'endpoints',
  endpoint: 'endpoints',
  'endpointslice-controller': 'endpointslice',
  endpointslice: 'endpointslice',
  'disruption-controller': 'disruption',
  disruption: 'disruption',
  'node-lifecycle-controller': 'nodelifecycle',
  nodelifecycle: 'nodelifecycle',
  'taint-eviction-controller': 'tainteviction',
  'certificatesigningrequest-approving-controller': 'csrapproving',
  csrapproving: 'csrapproving',
  'certificatesigningrequest-signing-controller': 'csrsigning',
  csrsigning: 'csrsigning',
  'persistentvolume-binder-controller': 'persistentvolume-binder',
  'persistentvolume-binder': 'persistentvolume-binder',
  'persistentvolumeclaim-protection-controller': 'pvc-protection',
  'pvc-protection': 'pvc-protection',
  'root-ca-certificate-publisher-controller': 'root-ca-cert-publisher',
  'root-ca-cert-publisher': 'root-ca-cert-publisher',
};

/**
 * Which of our controllers kube-controller-manager's `--controllers` list selects, as kube reads it: `*` turns on
 * every controller that is on by default, `name` turns one on, `-name` off (order does not matter; an explicit
 * `-name` wins). `unknown` lists the names (with their `-`) that have no counterpart here.
 */
export function selectKubeControllers(list: string): { controllers: string[]; unknown: string[] } {
  const words = list
    .split(',')
    .map((w) => w.trim())
    .filter(Boolean);
  const all = words.includes('*');
  const on = new Set<string>();
  const off = new Set<string>();
  const unknown: string[] = [];
  for (const word of words) {
    if (word === '*') continue;
    const disable = word.startsWith('-');
    const name = disable ? word.slice(1) : word;
    const ours = Object.hasOwn(KUBE_CONTROLLERS, name) ? KUBE_CONTROLLERS[name] : undefined;
    if (!ours) unknown.push(word);
    else (disable ? off : on).add(ours);
  }
  const controllers = KUBE_CONTROLLER_MANAGER_CONTROLLERS.filter((n) => !off.has(n) && (on.has(n) || all));
  return { controllers, unknown };
}

// Flags whose meaning `gardener-local controller-manager` has, with how to say them to it.
const TRANSLATIONS: Record<string, FlagTranslation> = {
  ...commonComponentTranslations(PROGRAM),
  'node-monitor-grace-period': (f) => ['--node-monitor-grace-period', requiredValue(PROGRAM, f)],
  'use-service-account-credentials': (f) => (booleanValue(PROGRAM, f) ? ['--use-service-account-credentials'] : []),
  'cluster-signing-duration': (f) => ['--cluster-signing-duration', requiredValue(PROGRAM, f)],
  'root-ca-file': (f) => ['--root-ca-file', requiredValue(PROGRAM, f)],
  ...Object.fromEntries(
    SIGNING_FILE_FLAGS.map((name): [string, FlagTranslation] => [
      name,
      (f) => [`--${name}`, requiredValue(PROGRAM, f)],
    ]),
  ),
  controllers: (f, context) => {
    const { controllers, unknown } = selectKubeControllers(requiredValue(PROGRAM, f));
    for (const name of unknown) context.ignored(`--controllers=${name}`);
    return ['--controllers', controllers.join(',')];
  },
};

const BOOLEANS = new Set(['leader-elect', 'allocate-node-cidrs', 'use-service-account-credentials']);

/** Translates kube-controller-manager's arguments; see the file header for what is dropped. */
export function translateKubeControllerManagerArgs(args: string[], context: TranslationContext): string[] {
  return translateUpstreamArgs(args, context, TRANSLATIONS, BOOLEANS);
}
