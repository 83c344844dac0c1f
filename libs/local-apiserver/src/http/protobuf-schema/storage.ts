// storage.k8s.io/v1: StorageClass (see notation.ts). Field numbers: k8s.io/api storage/v1 generated.proto;
// allowedTopologies are core/v1 TopologySelectorTerms (core.ts).
import type { MessageTable } from './notation.js';
import { CORE, META, STORAGE } from './notation.js';

export const STORAGE_MESSAGES: MessageTable = {
  [`${STORAGE}.StorageClass`]: [
    `metadata 1 ${META}.ObjectMeta`,
    'provisioner 2 *string',
    'parameters 3 map<string,string>',
    'reclaimPolicy 4 *string',
    'mountOptions 5 repeated string',
    'allowVolumeExpansion 6 *bool',
    'volumeBindingMode 7 *string',
    `allowedTopologies 8 repeated ${CORE}.TopologySelectorTerm`,
  ],
};
