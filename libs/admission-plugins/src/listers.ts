// Listers over a cluster client (live reads, as gardener-apiserver's plugins fall back to for freshly written
// objects) and over a fixed set of objects (for pure tests and dry runs).
import { isNotFound, kind, type Client, type KubernetesObject } from '@gardener-ts/controller-runtime';
import type { KubeObject, Listers } from './attributes.js';

/** Listers reading through `client` (GET and LIST against the API server; SubjectAccessReviews for `authorize`). */
export function clientListers(client: Pick<Client, 'get' | 'list' | 'create'>): Listers {
  return {
    async authorize(user, resource) {
      const review = await client
        .create({
          apiVersion: 'authorization.k8s.io/v1',
          kind: 'SubjectAccessReview',
          spec: {
            user: user.username,
            groups: user.groups,
            ...(user.uid ? { uid: user.uid } : {}),
            ...(user.extra ? { extra: user.extra } : {}),
            resourceAttributes: resource,
          },
        } as KubeObject)
        .catch((err: unknown) => {
          throw new Error(`asking whether ${user.username ?? ''} may ${resource.verb} ${resource.resource}`, {
            cause: err,
          });
        });
      return (review as KubeObject).status?.allowed === true;
    },
    async get(apiVersion, kindName, name, namespace) {
      try {
        return (await client.get(kind(apiVersion, kindName), {
          name,
          ...(namespace ? { namespace } : {}),
        })) as KubeObject;
      } catch (err) {
        if (isNotFound(err)) return undefined;
        throw new Error(`reading ${kindName} ${namespace ? `${namespace}/` : ''}${name}`, { cause: err });
      }
    },
    async list(apiVersion, kindName, namespace) {
      try {
        const list = await client.list(kind(apiVersion, kindName), namespace ? { namespace } : {});
        return list.items as KubeObject[];
      } catch (err) {
        throw new Error(`listing ${kindName}${namespace ? ` in ${namespace}` : ''}`, { cause: err });
      }
    },
    // Not wrapped: the API server's refusal is the message callers report.
    async createDryRun(object) {
      await client.create(object as KubernetesObject, { dryRun: true });
    },
  };
}

/** Listers over `objects` (matched by apiVersion, kind, namespace and name); `authorize` answers the questions. */
export function staticListers(objects: readonly KubeObject[], authorize?: Listers['authorize']): Listers {
  const matches = (o: KubeObject, apiVersion: string, kindName: string, namespace?: string) =>
    o.apiVersion === apiVersion &&
    o.kind === kindName &&
    (namespace === undefined || o.metadata?.namespace === namespace);
  return {
    get: async (apiVersion, kindName, name, namespace) =>
      objects.find((o) => matches(o, apiVersion, kindName, namespace) && o.metadata?.name === name),
    list: async (apiVersion, kindName, namespace) => objects.filter((o) => matches(o, apiVersion, kindName, namespace)),
    ...(authorize ? { authorize } : {}),
  };
}
