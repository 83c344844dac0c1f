// discovery.k8s.io/v1: EndpointSlice (see notation.ts). Field numbers: k8s.io/api discovery/v1 generated.proto.
// Go prints `endpoints`, `ports` and an endpoint's `addresses` without omitempty (null when empty), and most scalars
// here are pointers.
import type { MessageTable } from './notation.js';
import { CORE, DISCOVERY, META } from './notation.js';

export const DISCOVERY_MESSAGES: MessageTable = {
  [`${DISCOVERY}.EndpointSlice`]: [
    `metadata 1 ${META}.ObjectMeta`,
    'addressType 4 *string',
    'endpoints 2 repeated *Endpoint',
    'ports 3 repeated *EndpointPort',
  ],
  [`${DISCOVERY}.Endpoint`]: [
    'addresses 1 repeated *string',
    'conditions 2 EndpointConditions',
    'hostname 3 *string',
    `targetRef 4 ${CORE}.ObjectReference`,
    'deprecatedTopology 5 map<string,string>',
    'nodeName 6 *string',
    'zone 7 *string',
    'hints 8 EndpointHints',
  ],
  [`${DISCOVERY}.EndpointConditions`]: ['ready 1 *bool', 'serving 2 *bool', 'terminating 3 *bool'],
  [`${DISCOVERY}.EndpointHints`]: ['forZones 1 repeated ForZone', 'forNodes 2 repeated ForNode'],
  [`${DISCOVERY}.ForZone`]: ['name 1 *string'],
  [`${DISCOVERY}.ForNode`]: ['name 1 *string'],
  [`${DISCOVERY}.EndpointPort`]: ['name 1 *string', 'protocol 2 *string', 'port 3 *int32', 'appProtocol 4 *string'],
};
