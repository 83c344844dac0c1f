// ServiceAccount tokens as kube issues and checks them: ES256 JWTs signed with the cluster's service-account key,
// issued through the TokenRequest API (`serviceaccounts/token`) with audiences, an expiry and an optional bound
// Pod, Secret or Node; valid only while the ServiceAccount (same uid) and the bound object (same uid) exist.
// kube's --service-account-signing-key-file / --service-account-key-file / --service-account-issuer: the signing key
// (RSA → RS256, ECDSA P-256 → ES256, `kid` the hash of its public key), the keys tokens are verified with (every key of
// a bundle, so tokens of a rotated-out key stay valid) and the issuer, which is also the default API audience.
import { createHash, randomUUID, createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import { errors } from '../api/errors.js';
import type { Authenticator } from '../http/authn.js';
import type { UserInfo } from '../server/context.js';
import type { KubeObject, Storage } from '../storage/types.js';
import { SignJWT, jwtVerify, type JWTPayload } from 'jose';

/** The issuer of the local API server's tokens when none is configured. */
export const ISSUER = 'https://kubernetes.default.svc.cluster.local';
/** kube's default --api-audiences: the issuer. */
export const API_AUDIENCES = [ISSUER];

/** Options of {@link ServiceAccountTokens}. */
export interface ServiceAccountTokenOptions {
  /** kube's --service-account-issuer (default {@link ISSUER}); also the API audience tokens are accepted for. */
  issuer?: string;
  /**
   * Further issuers whose tokens are accepted (kube's repeated --service-account-issuer: the first issues, all are
   * accepted), so that tokens issued before an issuer change stay valid until they expire.
   */
  acceptedIssuers?: string[];
  /**
   * kube's --service-account-key-file: PEM text with one or more public or private keys (RSA or ECDSA P-256) that
   * verify tokens. Default: the signing key's public key.
   */
  verificationKeysPem?: string;
  /** kube's --api-audiences: the audiences accepted tokens are for, and requests without audiences get (default: the issuer). */
  apiAudiences?: string[];
}

type Algorithm = 'RS256' | 'ES256';

/** The JWS algorithm of a key, as kube picks it: RS256 for RSA, ES256 for ECDSA P-256; throws for any other key. */
function algorithmOf(key: KeyObject): Algorithm {
  if (key.asymmetricKeyType === 'rsa') return 'RS256';
  if (key.asymmetricKeyType === 'ec' && key.asymmetricKeyDetails?.namedCurve === 'prime256v1') return 'ES256';
  throw new Error(
    `unsupported service account key type ${key.asymmetricKeyType}${key.asymmetricKeyDetails?.namedCurve ? ` (${key.asymmetricKeyDetails.namedCurve})` : ''}: use RSA or ECDSA P-256`,
  );
}

/** The public keys of every PEM block in `pem` (public keys, PKCS#1/PKCS#8/SEC1 private keys). */
export function parsePublicKeys(pem: string): KeyObject[] {
  const blocks = pem.match(/-----BEGIN ([A-Z0-9 ]+)-----[\s\S]*?-----END \1-----/g) ?? [];
  const keys = blocks
    .filter((block) => /^-----BEGIN (?:RSA |EC )?(?:PUBLIC|PRIVATE) KEY-----/.test(block))
    .map((block) => createPublicKey(block));
  if (keys.length === 0) throw new Error('no PEM public or private key found');
  for (const key of keys) algorithmOf(key);
  return keys;
}

/** kube's key id: the unpadded base64url SHA-256 of the public key's DER (PKIX). */
function keyID(key: KeyObject): string {
  return createHash('sha256')
    .update(key.export({ type: 'spki', format: 'der' }))
    .digest('base64url');
}
const DEFAULT_EXPIRATION_SECONDS = 3600;
const MIN_EXPIRATION_SECONDS = 600;

interface KubernetesClaims {
  namespace: string;
  serviceaccount: { name: string; uid: string };
  pod?: { name: string; uid: string };
  secret?: { name: string; uid: string };
  node?: { name: string; uid: string };
}

/** How long after its deletionTimestamp a ServiceAccount or bound object still backs a token (kube's JWT leeway). */
const DELETION_LEEWAY_MS = 60_000;

/**
 * Whether the object was deleted more than the leeway ago. A Pod being deleted has a deletionTimestamp at the end of
 * its grace period, so its token keeps working while it shuts down (a component releases its leader Lease, as kube
 * allows); once the Pod is gone, the token is refused.
 */
function deletedLongAgo(metadata: { deletionTimestamp?: string | null }): boolean {
  const at = metadata.deletionTimestamp ? Date.parse(metadata.deletionTimestamp) : NaN;
  return !Number.isNaN(at) && at < Date.now() - DELETION_LEEWAY_MS;
}

const BOUND_KINDS: Record<string, (namespace: string, name: string) => string> = {
  Pod: (ns, name) => `/registry/core/pods/${ns}/${name}`,
  Secret: (ns, name) => `/registry/core/secrets/${ns}/${name}`,
  Node: (_ns, name) => `/registry/core/nodes/${name}`,
};

export class ServiceAccountTokens {
  private readonly privateKey: KeyObject;
  private readonly algorithm: Algorithm;
  private readonly keyID: string;
  private readonly verificationKeys: { key: KeyObject; algorithm: Algorithm }[];
  /** The `iss` of issued tokens and the one verified tokens must carry. */
  readonly issuer: string;
  /** The audiences a token is for when the request names none, and those the API server accepts. */
  readonly apiAudiences: string[];
  /** The issuers verified tokens may carry: the issuer and the further accepted ones. */
  private readonly acceptedIssuers: string[];

  /** Tokens signed with `keyPem` (a PEM private key) for ServiceAccounts in `storage`. */
  constructor(
    keyPem: string,
    private readonly storage: Storage,
    options: ServiceAccountTokenOptions = {},
  ) {
    this.privateKey = createPrivateKey(keyPem);
    this.algorithm = algorithmOf(this.privateKey);
    this.keyID = keyID(createPublicKey(this.privateKey));
    const publicKeys = options.verificationKeysPem
      ? parsePublicKeys(options.verificationKeysPem)
      : [createPublicKey(this.privateKey)];
    this.verificationKeys = publicKeys.map((key) => ({ key, algorithm: algorithmOf(key) }));
    this.issuer = options.issuer ?? ISSUER;
    this.acceptedIssuers = [...new Set([this.issuer, ...(options.acceptedIssuers ?? [])])];
    this.apiAudiences = options.apiAudiences?.length ? [...options.apiAudiences] : [this.issuer];
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
    const audiences: string[] = spec.audiences?.length ? spec.audiences : this.apiAudiences;
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
      .setProtectedHeader({ alg: this.algorithm, kid: this.keyID })
      .setIssuer(this.issuer)
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
    audiences: string[] = this.apiAudiences,
  ): Promise<{ user: UserInfo; audiences: string[] } | undefined> {
    if (token.split('.').length !== 3) return undefined;
    let payload: JWTPayload | undefined;
    for (const { key, algorithm } of this.verificationKeys) {
      try {
        ({ payload } = await jwtVerify(token, key, {
          issuer: this.acceptedIssuers,
          audience: audiences,
          algorithms: [algorithm],
        }));
        break;
      } catch {
        // Not this key (or not valid at all): try the next one.
      }
    }
    if (!payload) return undefined;
    const claims = payload['kubernetes.io'] as KubernetesClaims | undefined;
    if (!claims?.serviceaccount) return undefined;
    const sa = await this.storage.get(
      `/registry/core/serviceaccounts/${claims.namespace}/${claims.serviceaccount.name}`,
    );
    if (!sa || sa.object.metadata.uid !== claims.serviceaccount.uid || deletedLongAgo(sa.object.metadata))
      return undefined;
    for (const kind of ['Pod', 'Secret', 'Node'] as const) {
      const ref = claims[kind.toLowerCase() as 'pod' | 'secret' | 'node'];
      if (!ref) continue;
      const target = await this.storage.get(BOUND_KINDS[kind](claims.namespace, ref.name));
      if (!target || target.object.metadata.uid !== ref.uid || deletedLongAgo(target.object.metadata)) return undefined;
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
