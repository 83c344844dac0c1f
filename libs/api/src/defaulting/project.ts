// defaultProject, defaultSecretBinding: RBAC API groups of subjects, secret reference namespace.
import type { Project, SecretBinding } from '../core/v1beta1/project.js';

const rbacGroup = 'rbac.authorization.k8s.io';

function defaultSubject(subject: { kind: string; apiGroup?: string } | undefined): void {
  if (!subject || subject.apiGroup !== undefined) return;
  subject.apiGroup = subject.kind === 'ServiceAccount' ? '' : rbacGroup;
}

export function defaultProject(input: Project): Project {
  const project = structuredClone(input);
  defaultSubject(project.spec?.owner);
  defaultSubject(project.spec?.createdBy);
  for (const member of project.spec?.members ?? []) defaultSubject(member);
  return project;
}

export function defaultSecretBinding(input: SecretBinding): SecretBinding {
  const binding = structuredClone(input);
  if (binding.secretRef && binding.secretRef.namespace === undefined)
    binding.secretRef.namespace = binding.metadata?.namespace;
  return binding;
}
