// The Kubernetes protobuf wire format of the kinds we decode, in our own notation: for each message its fields as
// `name number type` (`repeated T`, `map<K,V>`), from the field numbers of the Kubernetes API (facts of the wire
// format). Kinds not listed here are answered with 415. Extend it kind by kind as typed clients need them.
import type protobuf from 'protobufjs';

const META = 'k8s.io.apimachinery.pkg.apis.meta.v1';
const RUNTIME = 'k8s.io.apimachinery.pkg.runtime';
const CORE = 'k8s.io.api.core.v1';
const AUTHZ = 'k8s.io.api.authorization.v1';
const AUTHN = 'k8s.io.api.authentication.v1';
const CERTS = 'k8s.io.api.certificates.v1';

const MESSAGES: Record<string, string[]> = {
  [`${RUNTIME}.TypeMeta`]: ['apiVersion 1 string', 'kind 2 string'],
  [`${RUNTIME}.Unknown`]: [`typeMeta 1 ${RUNTIME}.TypeMeta`, 'raw 2 bytes', 'contentEncoding 3 string', 'contentType 4 string'],
  [`${RUNTIME}.RawExtension`]: ['raw 1 bytes'],
  'k8s.io.apimachinery.pkg.util.intstr.IntOrString': ['type 1 int64', 'intVal 2 int32', 'strVal 3 string'],
  'k8s.io.apimachinery.pkg.api.resource.Quantity': ['string 1 string'],
  [`${META}.Time`]: ['seconds 1 int64', 'nanos 2 int32'],
  [`${META}.MicroTime`]: ['seconds 1 int64', 'nanos 2 int32'],
  [`${META}.Duration`]: ['duration 1 int64'],
  [`${META}.FieldsV1`]: ['Raw 1 bytes'],
  [`${META}.OwnerReference`]: ['kind 1 string', 'name 3 string', 'uid 4 string', 'apiVersion 5 string', 'controller 6 bool', 'blockOwnerDeletion 7 bool'],
  [`${META}.ManagedFieldsEntry`]: ['manager 1 string', 'operation 2 string', 'apiVersion 3 string', `time 4 ${META}.Time`, 'fieldsType 6 string', `fieldsV1 7 ${META}.FieldsV1`, 'subresource 8 string'],
  [`${META}.ObjectMeta`]: [
    'name 1 string',
    'generateName 2 string',
    'namespace 3 string',
    'selfLink 4 string',
    'uid 5 string',
    'resourceVersion 6 string',
    'generation 7 int64',
    `creationTimestamp 8 ${META}.Time`,
    `deletionTimestamp 9 ${META}.Time`,
    'deletionGracePeriodSeconds 10 int64',
    'labels 11 map<string,string>',
    'annotations 12 map<string,string>',
    `ownerReferences 13 repeated ${META}.OwnerReference`,
    'finalizers 14 repeated string',
    `managedFields 17 repeated ${META}.ManagedFieldsEntry`,
  ],
  [`${META}.LabelSelectorRequirement`]: ['key 1 string', 'operator 2 string', 'values 3 repeated string'],
  [`${META}.LabelSelector`]: ['matchLabels 1 map<string,string>', `matchExpressions 2 repeated ${META}.LabelSelectorRequirement`],
  [`${META}.Preconditions`]: ['uid 1 string', 'resourceVersion 2 string'],
  [`${META}.DeleteOptions`]: ['gracePeriodSeconds 1 int64', `preconditions 2 ${META}.Preconditions`, 'orphanDependents 3 bool', 'propagationPolicy 4 string', 'dryRun 5 repeated string'],
  [`${META}.CreateOptions`]: ['dryRun 1 repeated string', 'fieldManager 3 string', 'fieldValidation 4 string'],
  [`${AUTHN}.BoundObjectReference`]: ['kind 1 string', 'apiVersion 2 string', 'name 3 string', 'uid 4 string'],
  [`${AUTHN}.TokenRequestSpec`]: ['audiences 1 repeated string', `boundObjectRef 3 ${AUTHN}.BoundObjectReference`, 'expirationSeconds 4 int64'],
  [`${AUTHN}.TokenRequest`]: [`metadata 1 ${META}.ObjectMeta`, `spec 2 ${AUTHN}.TokenRequestSpec`],
  [`${AUTHN}.TokenReviewSpec`]: ['token 1 string', 'audiences 2 repeated string'],
  [`${AUTHN}.TokenReview`]: [`metadata 1 ${META}.ObjectMeta`, `spec 2 ${AUTHN}.TokenReviewSpec`],
  [`${CERTS}.ExtraValue`]: ['items 1 repeated string'],
  [`${CERTS}.CertificateSigningRequestSpec`]: [
    'request 1 bytes',
    'username 2 string',
    'uid 3 string',
    'groups 4 repeated string',
    'usages 5 repeated string',
    `extra 6 map<string,${CERTS}.ExtraValue>`,
    'signerName 7 string',
    'expirationSeconds 8 int32',
  ],
  [`${CERTS}.CertificateSigningRequestCondition`]: ['type 1 string', 'reason 2 string', 'message 3 string', `lastUpdateTime 4 ${META}.Time`, `lastTransitionTime 5 ${META}.Time`, 'status 6 string'],
  [`${CERTS}.CertificateSigningRequestStatus`]: [`conditions 1 repeated ${CERTS}.CertificateSigningRequestCondition`, 'certificate 2 bytes'],
  [`${CERTS}.CertificateSigningRequest`]: [`metadata 1 ${META}.ObjectMeta`, `spec 2 ${CERTS}.CertificateSigningRequestSpec`, `status 3 ${CERTS}.CertificateSigningRequestStatus`],
  [`${AUTHZ}.ResourceAttributes`]: ['namespace 1 string', 'verb 2 string', 'group 3 string', 'version 4 string', 'resource 5 string', 'subresource 6 string', 'name 7 string'],
  [`${AUTHZ}.NonResourceAttributes`]: ['path 1 string', 'verb 2 string'],
  [`${AUTHZ}.SelfSubjectAccessReviewSpec`]: [`resourceAttributes 1 ${AUTHZ}.ResourceAttributes`, `nonResourceAttributes 2 ${AUTHZ}.NonResourceAttributes`],
  [`${AUTHZ}.SelfSubjectAccessReview`]: [`metadata 1 ${META}.ObjectMeta`, `spec 2 ${AUTHZ}.SelfSubjectAccessReviewSpec`],
  [`${AUTHZ}.SelfSubjectRulesReviewSpec`]: ['namespace 1 string'],
  [`${AUTHZ}.SelfSubjectRulesReview`]: [`metadata 1 ${META}.ObjectMeta`, `spec 2 ${AUTHZ}.SelfSubjectRulesReviewSpec`],
  [`${CORE}.LocalObjectReference`]: ['name 1 string'],
  [`${CORE}.ObjectReference`]: ['kind 1 string', 'namespace 2 string', 'name 3 string', 'uid 4 string', 'apiVersion 5 string', 'resourceVersion 6 string', 'fieldPath 7 string'],
  [`${CORE}.Secret`]: [`metadata 1 ${META}.ObjectMeta`, 'data 2 map<string,bytes>', 'type 3 string', 'stringData 4 map<string,string>', 'immutable 5 bool'],
  [`${CORE}.NamespaceSpec`]: ['finalizers 1 repeated string'],
  [`${CORE}.Namespace`]: [`metadata 1 ${META}.ObjectMeta`, `spec 2 ${CORE}.NamespaceSpec`],
  [`${CORE}.ServiceAccount`]: [
    `metadata 1 ${META}.ObjectMeta`,
    `secrets 2 repeated ${CORE}.ObjectReference`,
    `imagePullSecrets 3 repeated ${CORE}.LocalObjectReference`,
    'automountServiceAccountToken 4 bool',
  ],
  [`${CORE}.ConfigMap`]: [`metadata 1 ${META}.ObjectMeta`, 'data 2 map<string,string>', 'binaryData 3 map<string,bytes>', 'immutable 4 bool'],
};

interface FieldJson {
  id: number;
  type: string;
  rule?: 'repeated';
  keyType?: string;
}

function parseField(spec: string): [string, FieldJson] {
  const [name, id, ...rest] = spec.split(' ');
  const type = rest.join(' ');
  const map = /^map<(\w+),([\w.]+)>$/.exec(type);
  if (map) return [name, { id: Number(id), keyType: map[1], type: map[2] }];
  if (type.startsWith('repeated ')) return [name, { id: Number(id), type: type.slice('repeated '.length), rule: 'repeated' }];
  return [name, { id: Number(id), type }];
}

/** The messages as a protobufjs JSON namespace (nested by package). */
export function protobufNamespace(): protobuf.INamespace {
  const root: protobuf.INamespace = { nested: {} };
  for (const [fullName, fields] of Object.entries(MESSAGES)) {
    const parts = fullName.split('.');
    let ns = root;
    for (const part of parts.slice(0, -1)) ns = ((ns.nested ??= {})[part] ??= { nested: {} }) as protobuf.INamespace;
    (ns.nested ??= {})[parts[parts.length - 1]] = { fields: Object.fromEntries(fields.map(parseField)) } as protobuf.IType;
  }
  return root;
}
