// ServiceAccount tokens as kube issues and checks them: ES256 JWTs signed with the cluster's service-account key,
// issued through the TokenRequest API (`serviceaccounts/token`) with audiences, an expiry and an optional bound
// Pod, Secret or Node; valid only while the ServiceAccount (same uid) and the bound object (same uid) exist.
import { randomUUID, createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import { errors } from '../api/errors.js';
import type { Authenticator } from '../http/authn.js';
import type { UserInfo } from '../server/context.js';
import type { KubeObject, Storage } from '../storage/types.js';
import { SignJWT, jwtVerify, type JWTPayload } from 'jose';

export const ISSUER = 'https://kubernetes.default.svc.cluster.local';
/** kube's default --api-audiences: the issuer. */
export const API_AUDIENCES = [ISSUER];
const DEFAULT_EXPIRATION_SECONDS = 3600;
const MIN_EXPIRATION_SECONDS = 600;

interface KubernetesClaims {
  namespace: string;
  serviceaccount: { name: string; uid: string };
  pod?: { name: string; uid: string };
  secret?: { name: string; uid: string };
  node?: { name: string; uid: string };
}

const BOUND_KINDS: Record<string, (namespace: string, name: string) => string> = {
  Pod: (ns, name) => `/registry/core/pods/${ns}/${name}`,
  Secret: (ns, name) => `/registry/core/secrets/${ns}/${name}`,
  Node: (_ns, name) => `/registry/core/nodes/${name}`,
};

export class ServiceAccountTokens {
  private readonly privateKey: KeyObject;
  private readonly publicKey: KeyObject;

  constructor(
    keyPem: string,
    private readonly storage: Storage,
  ) {
    this.privateKey = createPrivateKey(keyPem);
    this.publicKey = createPublicKey(this.privateKey);
  }

  /** Answers a TokenRequest for the ServiceAccount `name` in `namespace`. */
  async request(namespace: string, name: string, body: KubeObject): Promise<KubeObject> {
    const sa = await this.storage.get(`/registry/core/serviceaccounts/${namespace}/${name}`);
    if (!sa) throw errors.notFound('serviceaccounts', '', name);
    const spec = body.spec ?? {};
    const expirationSeconds = Number(spec.expirationSeconds ?? DEFAULT_EXPIRATION_SECONDS);
    if (
      !Number.isInteger(expirationSeconds) ||
      expirationSeconds < MIN_EXPIRATION_SECONDS ||
      expirationSeconds > 2 ** 32
    ) {
      throw errors.invalid('TokenRequest', 'authentication.k8s.io', name, [
        {
          field: 'spec.expirationSeconds',
          reason: 'FieldValueInvalid',
          message: `Invalid value: ${spec.expirationSeconds}: may not specify a duration less than 10 minutes`,
        },
      ]);
    }
    const audiences: string[] = spec.audiences?.length ? spec.audiences : API_AUDIENCES;
    const claims: KubernetesClaims = { namespace, serviceaccount: { name, uid: sa.object.metadata.uid } };
    const bound = spec.boundObjectRef;
    if (bound) {
      const key = BOUND_KINDS[bound.kind];
      if (!key) {
        throw errors.invalid('TokenRequest', 'authentication.k8s.io', name, [
          {
            field: 'spec.boundObjectRef.kind',
            reason: 'FieldValueNotSupported',
            message: `Unsupported value: "${bound.kind}": supported values: "Node", "Pod", "Secret"`,
          },
        ]);
      }
      const target = await this.storage.get(key(namespace, bound.name));
      if (!target || (bound.uid && bound.uid !== target.object.metadata.uid)) {
        throw errors.notFound(`${String(bound.kind).toLowerCase()}s`, '', bound.name);
      }
      claims[bound.kind.toLowerCase() as 'pod' | 'secret' | 'node'] = {
        name: bound.name,
        uid: target.object.metadata.uid,
      };
    }
    const now = Math.floor(Date.now() / 1000);
    const token = await new SignJWT({ 'kubernetes.io': claims } as unknown as JWTPayload)
      .setProtectedHeader({ alg: 'ES256', kid: 'gardener-ts-local' })
      .setIssuer(ISSUER)
      .setSubject(`system:serviceaccount:${namespace}:${name}`)
      .setAudience(audiences)
      .setIssuedAt(now)
      .setNotBefore(now)
      .setExpirationTime(now + expirationSeconds)
      .setJti(randomUUID())
      .sign(this.privateKey);
    return {
      apiVersion: 'authentication.k8s.io/v1',
      kind: 'TokenRequest',
      metadata: { name, namespace, creationTimestamp: null },
      spec: { audiences, expirationSeconds, boundObjectRef: bound ?? null },
      status: {
        token,
        expirationTimestamp: new Date((now + expirationSeconds) * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z'),
      },
    };
  }

  /** The user of a valid token for one of `audiences`, or undefined (never an error that helps an attacker). */
  async verify(
    token: string,
    audiences: string[] = API_AUDIENCES,
  ): Promise<{ user: UserInfo; audiences: string[] } | undefined> {
    if (token.split('.').length !== 3) return undefined;
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, this.publicKey, {
        issuer: ISSUER,
        audience: audiences,
        algorithms: ['ES256'],
      }));
    } catch {
      return undefined;
    }
    const claims = payload['kubernetes.io'] as KubernetesClaims | undefined;
    if (!claims?.serviceaccount) return undefined;
    const sa = await this.storage.get(
      `/registry/core/serviceaccounts/${claims.namespace}/${claims.serviceaccount.name}`,
    );
    if (!sa || sa.object.metadata.uid !== claims.serviceaccount.uid || sa.object.metadata.deletionTimestamp)
      return undefined;
    for (const kind of ['Pod', 'Secret', 'Node'] as const) {
      const ref = claims[kind.toLowerCase() as 'pod' | 'secret' | 'node'];
      if (!ref) continue;
      const target = await this.storage.get(BOUND_KINDS[kind](claims.namespace, ref.name));
      if (!target || target.object.metadata.uid !== ref.uid || target.object.metadata.deletionTimestamp)
        return undefined;
    }
    const extra: Record<string, string[]> = { 'authentication.kubernetes.io/credential-id': [`JTI=${payload.jti}`] };
    if (claims.pod) {
      extra['authentication.kubernetes.io/pod-name'] = [claims.pod.name];
      extra['authentication.kubernetes.io/pod-uid'] = [claims.pod.uid];
    }
    const aud = Array.isArray(payload.aud) ? payload.aud : [payload.aud ?? ''];
    return {
      user: {
        username: `system:serviceaccount:${claims.namespace}:${claims.serviceaccount.name}`,
        uid: claims.serviceaccount.uid,
        groups: ['system:serviceaccounts', `system:serviceaccounts:${claims.namespace}`, 'system:authenticated'],
        extra,
      },
      audiences: aud.filter((a) => audiences.includes(a)),
    };
  }

  /** Bearer ServiceAccount JWTs for the API server's own audiences. */
  readonly authenticator: Authenticator = async (req) => {
    const header = req.headers.authorization;
    if (!header?.startsWith('Bearer ')) return undefined;
    return (await this.verify(header.slice(7).trim()))?.user;
  };
}
