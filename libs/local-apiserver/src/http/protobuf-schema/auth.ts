// authentication.k8s.io/v1, authorization.k8s.io/v1 and certificates.k8s.io/v1 (see notation.ts).
import type { MessageTable } from './notation.js';
import { AUTHN, AUTHZ, CERTS, META } from './notation.js';

export const AUTH_MESSAGES: MessageTable = {
  [`${AUTHN}.BoundObjectReference`]: ['kind 1 string', 'apiVersion 2 string', 'name 3 string', 'uid 4 string'],
  [`${AUTHN}.TokenRequestSpec`]: [
    'audiences 1 repeated string',
    'boundObjectRef 3 BoundObjectReference',
    'expirationSeconds 4 *int64',
  ],
  [`${AUTHN}.TokenRequest`]: [`metadata 1 ${META}.ObjectMeta`, 'spec 2 TokenRequestSpec'],
  [`${AUTHN}.TokenReviewSpec`]: ['token 1 string', 'audiences 2 repeated string'],
  [`${AUTHN}.TokenReview`]: [`metadata 1 ${META}.ObjectMeta`, 'spec 2 TokenReviewSpec'],
  [`${AUTHN}.SelfSubjectReview`]: [`metadata 1 ${META}.ObjectMeta`],

  [`${AUTHZ}.ResourceAttributes`]: [
    'namespace 1 string',
    'verb 2 string',
    'group 3 string',
    'version 4 string',
    'resource 5 string',
    'subresource 6 string',
    'name 7 string',
  ],
  [`${AUTHZ}.NonResourceAttributes`]: ['path 1 string', 'verb 2 string'],
  [`${AUTHZ}.SelfSubjectAccessReviewSpec`]: [
    'resourceAttributes 1 ResourceAttributes',
    'nonResourceAttributes 2 NonResourceAttributes',
  ],
  [`${AUTHZ}.SelfSubjectAccessReview`]: [`metadata 1 ${META}.ObjectMeta`, 'spec 2 SelfSubjectAccessReviewSpec'],
  [`${AUTHZ}.SelfSubjectRulesReviewSpec`]: ['namespace 1 string'],
  [`${AUTHZ}.SelfSubjectRulesReview`]: [`metadata 1 ${META}.ObjectMeta`, 'spec 2 SelfSubjectRulesReviewSpec'],

  [`${CERTS}.ExtraValue`]: ['items 1 repeated string'],
  [`${CERTS}.CertificateSigningRequestSpec`]: [
    'request 1 *bytes',
    'username 2 string',
    'uid 3 string',
    'groups 4 repeated string',
    'usages 5 repeated string',
    'extra 6 map<string,ExtraValue>',
    'signerName 7 string',
    'expirationSeconds 8 *int32',
  ],
  [`${CERTS}.CertificateSigningRequestCondition`]: [
    'type 1 string',
    'reason 2 string',
    'message 3 string',
    `lastUpdateTime 4 ${META}.Time`,
    `lastTransitionTime 5 ${META}.Time`,
    'status 6 string',
  ],
  [`${CERTS}.CertificateSigningRequestStatus`]: [
    'conditions 1 repeated CertificateSigningRequestCondition',
    'certificate 2 bytes',
  ],
  [`${CERTS}.CertificateSigningRequest`]: [
    `metadata 1 ${META}.ObjectMeta`,
    'spec 2 CertificateSigningRequestSpec',
    'status 3 CertificateSigningRequestStatus',
  ],
};
