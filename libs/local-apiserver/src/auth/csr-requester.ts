// A CertificateSigningRequest records who asked for it: kube sets spec.username, uid, groups and extra from the
// authenticated requester on create, whatever the client sent, so approvers can trust them.
import type { WriteStep } from '../server/pipeline.js';

export const recordCSRRequester: WriteStep = (r) => {
  const d = r.definition;
  if (d.group !== 'certificates.k8s.io' || d.resource !== 'certificatesigningrequests' || r.operation !== 'CREATE')
    return;
  const spec = (r.object.spec ??= {});
  const user = r.ctx.user;
  spec.username = user.username;
  if (user.uid) spec.uid = user.uid;
  else delete spec.uid;
  spec.groups = user.groups;
  if (user.extra && Object.keys(user.extra).length > 0) spec.extra = user.extra;
  else delete spec.extra;
};
