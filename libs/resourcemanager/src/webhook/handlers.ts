// The HTTP side of each webhook: reads what the decision needs from the clusters (namespace, ServiceAccount, HPAs,
// nodes, the objects of a collection delete), then calls the pure decision.
import type { ResourceManagerConfiguration } from '@gardener-ts/component-config';
import {
  isNotFound,
  kind,
  type AdmissionHandler,
  type KubernetesObject,
  type Reader,
} from '@gardener-ts/controller-runtime';
import { WebhookLabel } from './constants.js';
import { crdDeletionProtection, protectedResource } from './crd-deletion-protection.js';
import { highAvailabilityConfig } from './high-availability.js';
import { projectedTokenMount, serviceAccountToCheck } from './projected-token-mount.js';
import { systemComponentsConfig, type Taint } from './system-components-config.js';
import type { HorizontalPodAutoscaler, Pod, Toleration } from './types.js';

const NamespaceKind = kind('v1', 'Namespace');
const ServiceAccountKind = kind<KubernetesObject & { automountServiceAccountToken?: boolean }>('v1', 'ServiceAccount');
const NodeKind = kind<KubernetesObject & { spec?: { taints?: Taint[] } }>('v1', 'Node');
const HPAKind = kind<HorizontalPodAutoscaler>('autoscaling/v2', 'HorizontalPodAutoscaler');

type Webhooks = ResourceManagerConfiguration['webhooks'];

export function highAvailabilityHandler(target: Reader, config: Webhooks['highAvailabilityConfig']): AdmissionHandler {
  return async (request) => {
    const namespace = await target.get(NamespaceKind, { name: request.namespace ?? '' });
    const apiVersion = request.kind.group ? `${request.kind.group}/${request.kind.version}` : request.kind.version;
    const hpas =
      request.kind.kind === 'HorizontalPodAutoscaler'
        ? []
        : (await target.list(HPAKind, { namespace: request.namespace })).items;
    const hpa = hpas.find(
      (h) =>
        h.spec.scaleTargetRef.apiVersion === apiVersion &&
        h.spec.scaleTargetRef.kind === request.kind.kind &&
        h.spec.scaleTargetRef.name === request.name,
    );
    return highAvailabilityConfig(request, {
      namespace,
      scaledUpTo: hpa?.spec.maxReplicas,
      defaultNotReadyTolerationSeconds: config.defaultNotReadyTolerationSeconds,
      defaultUnreachableTolerationSeconds: config.defaultUnreachableTolerationSeconds,
    });
  };
}

export function projectedTokenMountHandler(target: Reader, expirationSeconds: number): AdmissionHandler {
  return async (request) => {
    const name = serviceAccountToCheck(request.object as Pod | undefined);
    // The request's namespace, not the pod's: a pod being created may not carry one yet.
    const serviceAccount = name
      ? await target.get(ServiceAccountKind, { namespace: request.namespace, name })
      : undefined;
    return projectedTokenMount(request, { serviceAccount, expirationSeconds });
  };
}

export function systemComponentsConfigHandler(
  target: Reader,
  config: Webhooks['systemComponentsConfig'],
): AdmissionHandler {
  return async (request) => {
    const pod = request.object as Pod | undefined;
    const skip = !pod || pod.metadata?.labels?.[WebhookLabel.SystemComponentsConfigSkip] === 'true';
    const nodes = skip ? [] : (await target.list(NodeKind, { labelSelector: config.nodeSelector ?? {} })).items;
    return systemComponentsConfig(request, {
      podNodeSelector: config.podNodeSelector,
      podTolerations: config.podTolerations as Toleration[] | undefined,
      nodeTaints: nodes.flatMap((n) => n.spec?.taints ?? []),
    });
  };
}

/** A single DELETE carries the object; a collection delete is checked against what it would delete now. */
export function crdDeletionProtectionHandler(source: Reader): AdmissionHandler {
  return async (request) => {
    const target = protectedResource(request.resource);
    if (request.operation !== 'DELETE' || !target) return crdDeletionProtection(request, []);
    if (request.oldObject) return crdDeletionProtection(request, [request.oldObject]);
    const { group, version, kind: kindName } = request.kind;
    const k = kind(group ? `${group}/${version}` : version, kindName);
    try {
      if (request.name)
        return crdDeletionProtection(request, [
          await source.get(k, { namespace: request.namespace || undefined, name: request.name }),
        ]);
      const list = await source.list(
        k,
        target.kind === 'crd'
          ? { labelSelector: { [WebhookLabel.DeletionProtected]: 'true' } }
          : { namespace: request.namespace },
      );
      return crdDeletionProtection(request, list.items);
    } catch (err) {
      if (isNotFound(err)) return crdDeletionProtection(request, []);
      throw err;
    }
  };
}
