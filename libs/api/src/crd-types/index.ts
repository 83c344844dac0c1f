// Types of the kinds whose CRDs Gardener itself ships (generated from crds/gardener).
export * as extensionsv1alpha1 from './extensions-v1alpha1.generated.js';
export * as resourcesv1alpha1 from './resources-v1alpha1.generated.js';
export * as operatorv1alpha1 from './operator-v1alpha1.generated.js';
export * as machinev1alpha1 from './machine-v1alpha1.generated.js';
export { fieldsOf } from './fields.js';
