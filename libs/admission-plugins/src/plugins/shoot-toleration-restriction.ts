// ShootTolerationRestriction (gardener-apiserver plugin/pkg/shoot/tolerationrestriction): a new Shoot gets its
// Project's default tolerations (`spec.tolerations.defaults`), and every toleration a Shoot adds must be in the
// Project's whitelist (`spec.tolerations.whitelist`; a whitelisted key without value allows every value).
import { FieldPath, forbidden as forbiddenField, type FieldError } from '@gardener-ts/api';
import {
  allow,
  CORE,
  forbiddenFields,
  isKind,
  mutated,
  type AdmissionAttributes,
  type KubeObject,
  type Listers,
} from '../attributes.js';
import type { AdmissionPlugin } from '../chain.js';

interface Toleration {
  key: string;
  value?: string;
}

async function projectOf(a: AdmissionAttributes, listers: Listers): Promise<KubeObject | undefined> {
  const projects = await listers.list('core.gardener.cloud/v1beta1', 'Project');
  return projects.find((p) => p.spec?.namespace === a.namespace);
}

const same = (x: Toleration, y: Toleration) => x.key === y.key && (x.value ?? '') === (y.value ?? '');

/** The errors for the tolerations of a Shoot (only those new against `old`) against a whitelist. */
export function tolerationErrors(
  tolerations: readonly Toleration[],
  old: readonly Toleration[],
  whitelist: readonly Toleration[],
): FieldError[] {
  const errors: FieldError[] = [];
  tolerations.forEach((t, i) => {
    if (old.some((o) => same(o, t))) return;
    if (whitelist.some((w) => w.key === t.key && (w.value === undefined || w.value === t.value))) return;
    errors.push(
      forbiddenField(
        FieldPath.root('spec', 'tolerations').index(i),
        `toleration ${JSON.stringify(t)} is not in the project's whitelist`,
      ),
    );
  });
  return errors;
}

/** The ShootTolerationRestriction admission plugin. */
export const ShootTolerationRestriction: AdmissionPlugin = {
  name: 'ShootTolerationRestriction',
  handles: (a) =>
    isKind(a, CORE, 'Shoot') &&
    (a.operation === 'CREATE' || a.operation === 'UPDATE') &&
    !a.subresource &&
    Boolean(a.object),
  async admit(a, listers) {
    if (a.operation !== 'CREATE') return allow();
    const defaults: Toleration[] = (await projectOf(a, listers))?.spec?.tolerations?.defaults ?? [];
    const current: Toleration[] = a.object!.spec?.tolerations ?? [];
    const missing = defaults.filter((d) => !current.some((t) => t.key === d.key));
    if (missing.length === 0) return allow();
    return mutated({ ...a.object!, spec: { ...a.object!.spec, tolerations: [...current, ...missing] } });
  },
  async validate(a, listers) {
    const tolerations: Toleration[] = a.object!.spec?.tolerations ?? [];
    if (tolerations.length === 0) return allow();
    const project = await projectOf(a, listers);
    const whitelist: Toleration[] = [
      ...(project?.spec?.tolerations?.whitelist ?? []),
      ...(project?.spec?.tolerations?.defaults ?? []),
    ];
    const old: Toleration[] = a.operation === 'UPDATE' ? (a.oldObject?.spec?.tolerations ?? []) : [];
    const errors = tolerationErrors(tolerations, old, whitelist);
    return errors.length > 0 ? forbiddenFields(a, errors) : allow();
  },
};
