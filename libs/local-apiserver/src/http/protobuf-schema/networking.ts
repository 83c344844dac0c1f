// networking.k8s.io/v1: Ingress, IngressClass and NetworkPolicy (see notation.ts).
import type { MessageTable } from './notation.js';
import { CORE, INTSTR, META, NETWORKING } from './notation.js';

const OBJECT_META = `metadata 1 ${META}.ObjectMeta`;
const LS = `${META}.LabelSelector`;

export const NETWORKING_MESSAGES: MessageTable = {
  [`${NETWORKING}.Ingress`]: [OBJECT_META, 'spec 2 IngressSpec', 'status 3 IngressStatus'],
  [`${NETWORKING}.IngressSpec`]: [
    'ingressClassName 4 *string',
    'defaultBackend 1 IngressBackend',
    'tls 2 repeated IngressTLS',
    'rules 3 repeated IngressRule',
  ],
  [`${NETWORKING}.IngressBackend`]: ['service 4 IngressServiceBackend', `resource 3 ${CORE}.TypedLocalObjectReference`],
  [`${NETWORKING}.IngressServiceBackend`]: ['name 1 string', 'port 2 ServiceBackendPort'],
  [`${NETWORKING}.ServiceBackendPort`]: ['name 1 string', 'number 2 int32'],
  [`${NETWORKING}.IngressTLS`]: ['hosts 1 repeated string', 'secretName 2 string'],
  [`${NETWORKING}.IngressRule`]: ['host 1 string', 'ingressRuleValue 2 IngressRuleValue'],
  [`${NETWORKING}.IngressRuleValue`]: ['http 1 HTTPIngressRuleValue'],
  [`${NETWORKING}.HTTPIngressRuleValue`]: ['paths 1 repeated HTTPIngressPath'],
  [`${NETWORKING}.HTTPIngressPath`]: ['path 1 string', 'pathType 3 *string', 'backend 2 IngressBackend'],
  [`${NETWORKING}.IngressStatus`]: ['loadBalancer 1 IngressLoadBalancerStatus'],
  [`${NETWORKING}.IngressLoadBalancerStatus`]: ['ingress 1 repeated IngressLoadBalancerIngress'],
  [`${NETWORKING}.IngressLoadBalancerIngress`]: [
    'ip 1 string',
    'hostname 2 string',
    'ports 4 repeated IngressPortStatus',
  ],
  [`${NETWORKING}.IngressPortStatus`]: ['port 1 *int32', 'protocol 2 *string', 'error 3 *string'],

  [`${NETWORKING}.IngressClass`]: [OBJECT_META, 'spec 2 IngressClassSpec'],
  [`${NETWORKING}.IngressClassSpec`]: ['controller 1 string', 'parameters 2 IngressClassParametersReference'],
  [`${NETWORKING}.IngressClassParametersReference`]: [
    'apiGroup 1 *string',
    'kind 2 string',
    'name 3 string',
    'scope 4 *string',
    'namespace 5 *string',
  ],

  [`${NETWORKING}.NetworkPolicy`]: [OBJECT_META, 'spec 2 NetworkPolicySpec'],
  [`${NETWORKING}.NetworkPolicySpec`]: [
    `podSelector 1 ${LS}`,
    'ingress 2 repeated NetworkPolicyIngressRule',
    'egress 3 repeated NetworkPolicyEgressRule',
    'policyTypes 4 repeated string',
  ],
  [`${NETWORKING}.NetworkPolicyIngressRule`]: [
    'ports 1 repeated NetworkPolicyPort',
    'from 2 repeated NetworkPolicyPeer',
  ],
  [`${NETWORKING}.NetworkPolicyEgressRule`]: ['ports 1 repeated NetworkPolicyPort', 'to 2 repeated NetworkPolicyPeer'],
  [`${NETWORKING}.NetworkPolicyPeer`]: [`podSelector 1 ${LS}`, `namespaceSelector 2 ${LS}`, 'ipBlock 3 IPBlock'],
  [`${NETWORKING}.NetworkPolicyPort`]: ['protocol 1 *string', `port 2 ${INTSTR}`, 'endPort 3 *int32'],
  [`${NETWORKING}.IPBlock`]: ['cidr 1 string', 'except 2 repeated string'],
};
