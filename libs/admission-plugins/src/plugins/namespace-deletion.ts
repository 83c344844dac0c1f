// gardener-admission-controller's namespace deletion handler (pkg/admissioncontroller/webhook/admission/namespacedeletion):
// the namespace of a Project (label `gardener.cloud/role=project`) is deleted through its Project, not directly —
// unless the Project is already being deleted or gone.
import { Labels } from '@gardener-ts/api';
import { allow, forbidden, type AdmissionAttributes } from '../attributes.js';
import type { AdmissionPlugin } from '../chain.js';

const isNamespaceDelete = (a: AdmissionAttributes) =>
  a.kind.group === '' && a.kind.kind === 'Namespace' && a.operation === 'DELETE' && !a.subresource;

/** The namespace deletion protection. */
export const NamespaceDeletion: AdmissionPlugin = {
  name: 'NamespaceDeletion',
  handles: isNamespaceDelete,
  async validate(a, listers) {
    const namespace = a.oldObject ?? (a.name ? await listers.get('v1', 'Namespace', a.name) : undefined);
    if (!namespace || namespace.metadata?.labels?.[Labels.GardenRole] !== Labels.GardenRoleValue.Project)
      return allow();
    const projects = await listers.list('core.gardener.cloud/v1beta1', 'Project');
    const project = projects.find((p) => p.spec?.namespace === a.name);
    if (!project || project.metadata?.deletionTimestamp) return allow();
    return forbidden(
      a,
      `direct deletion of namespace "${a.name}" is forbidden: it belongs to project "${project.metadata?.name}", delete the project instead`,
    );
  },
};
