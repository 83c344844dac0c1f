export {
  generationChanged,
  resourceVersionChanged,
  labelChanged,
  annotationChanged,
  labelSelectorPredicate,
  and,
  or,
  not,
  type Predicate,
} from './predicates.js';
export type { ObjectEvent } from './event.js';
