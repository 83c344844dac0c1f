export * as Annotations from './annotations.js';
export * as Labels from './labels.js';
export * as Finalizers from './finalizers.js';
export * as Operations from './operations.js';
export * from './conditions.js';
export * from './errors.js';
export { LastOperationType, LastOperationState } from './operations.js';
export * from './namespaces.js';
