// scheduling.k8s.io/v1: PriorityClass (see notation.ts).
import type { MessageTable } from './notation.js';
import { META, SCHEDULING } from './notation.js';

export const SCHEDULING_MESSAGES: MessageTable = {
  [`${SCHEDULING}.PriorityClass`]: [
    `metadata 1 ${META}.ObjectMeta`,
    'value 2 *int32',
    'globalDefault 3 bool',
    'description 4 string',
    'preemptionPolicy 5 *string',
  ],
};
