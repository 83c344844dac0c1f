// gardener-admission-controller's kubeconfig secret validator (pkg/admissioncontroller/webhook/admission/kubeconfigsecret):
// a Secret in a project namespace whose `kubeconfig` key holds a kubeconfig may not use what would make Gardener's
// components run programs or read local files when they use it: `exec` and `auth-provider` users, `tokenFile`,
// `username`/`password` are allowed, but certificate, key and CA *files* are not (the data fields are).
import { parse } from 'yaml';
import { allow, forbidden, type AdmissionAttributes } from '../attributes.js';
import type { AdmissionPlugin } from '../chain.js';

const USER_FIELDS = ['exec', 'auth-provider', 'tokenFile', 'client-certificate', 'client-key'] as const;
const CLUSTER_FIELDS = ['certificate-authority'] as const;

/** What is not allowed in a kubeconfig, as messages (empty when it is fine). */
export function kubeconfigProblems(text: string): string[] {
  let config: any;
  try {
    config = parse(text);
  } catch (err) {
    return [`it cannot be parsed: ${(err as Error).message}`];
  }
  if (!config || typeof config !== 'object') return ['it is not a kubeconfig'];
  const problems: string[] = [];
  for (const entry of config.users ?? []) {
    for (const field of USER_FIELDS) {
      if (entry?.user?.[field] !== undefined) problems.push(`user "${entry.name ?? ''}": ${field} is not supported`);
    }
  }
  for (const entry of config.clusters ?? []) {
    for (const field of CLUSTER_FIELDS) {
      if (entry?.cluster?.[field] !== undefined)
        problems.push(`cluster "${entry.name ?? ''}": ${field} is not supported`);
    }
  }
  return problems;
}

const kubeconfigOf = (secret: NonNullable<AdmissionAttributes['object']>): string | undefined => {
  if (typeof secret.stringData?.kubeconfig === 'string') return secret.stringData.kubeconfig;
  if (typeof secret.data?.kubeconfig === 'string')
    return Buffer.from(secret.data.kubeconfig, 'base64').toString('utf8');
  return undefined;
};

/** The kubeconfig secret validator. */
export const KubeconfigSecretValidator: AdmissionPlugin = {
  name: 'KubeconfigSecretValidator',
  handles: (a) =>
    a.kind.group === '' &&
    a.kind.kind === 'Secret' &&
    (a.operation === 'CREATE' || a.operation === 'UPDATE') &&
    Boolean(a.object),
  validate(a) {
    const kubeconfig = kubeconfigOf(a.object!);
    if (kubeconfig === undefined) return allow();
    const problems = kubeconfigProblems(kubeconfig);
    return problems.length > 0 ? forbidden(a, `secret contains invalid kubeconfig: ${problems.join(', ')}`) : allow();
  },
};
