export {
  parseLabelSelector,
  labelSelectorMatcher,
  SelectorError,
  type LabelSelector,
  type LabelSelectorRequirement,
  type LabelMatcher,
  type Labels,
} from './selector.js';
