// The seed object of a core Bastion (pure), as Gardener's gardenlet Bastion controller writes it
// (pkg/gardenlet/controller/bastion/reconciler.go): an extension Bastion of the same name in the shoot's control plane
// namespace, with the shoot's provider type, the Bastion's ingress CIDRs and user data — a bash script that creates
// the user `gardener`, authorizes the Bastion's `spec.sshPublicKey` for it, grants it password-less sudo and starts
// the SSH daemon — carrying the reconcile request (`gardener.cloud/operation: reconcile` and a timestamp).
import { Annotations, Operations } from '@gardener-ts/api';
import { controlPlaneNamespaceOf } from '../../component/values.js';
import type { CoreBastion, ExtensionBastion, Shoot } from './kinds.js';

/** The user the bastion host authorizes the SSH key for (Gardener's `gardener`). */
export const BastionUser = 'gardener';

/**
 * Gardener's annotation confirming the forced deletion of a Bastion; the gardenlet passes it on to the extension
 * Bastion so the extension gives up on what it cannot clean up.
 */
export const ConfirmationForceDeletion = 'confirmation.gardener.cloud/force-deletion';

/** The bastion host's user data (Gardener's `createUserData`): a bash script authorizing `sshPublicKey`. */
export function renderUserData(sshPublicKey: string): string {
  return [
    '#!/bin/bash -eu',
    '',
    `id ${BastionUser} || useradd ${BastionUser} -mU`,
    `mkdir -p /home/${BastionUser}/.ssh`,
    `echo "${sshPublicKey}" > /home/${BastionUser}/.ssh/authorized_keys`,
    `chown ${BastionUser}:${BastionUser} /home/${BastionUser}/.ssh/authorized_keys`,
    `echo "${BastionUser} ALL=(ALL) NOPASSWD:ALL" >/etc/sudoers.d/99-${BastionUser}-user`,
    'systemctl start sshd || systemctl start ssh',
    '',
  ].join('\n');
}

/** The key of the extension Bastion of `bastion`: its name in the control plane namespace of `shoot`. */
export function extensionKey(bastion: CoreBastion, shoot: Shoot): { namespace: string; name: string } {
  return { namespace: controlPlaneNamespaceOf(shoot), name: bastion.metadata?.name ?? '' };
}

/**
 * The extension Bastion's spec for `bastion` (the user data base64-encoded, as Go's `[]byte` is on the wire). Throws
 * when the Bastion has no `spec.providerType` (the Bastion admission plugin copies it from the shoot).
 */
export function extensionSpec(bastion: CoreBastion): ExtensionBastion['spec'] {
  const type = bastion.spec.providerType;
  if (!type) {
    throw new Error(`Bastion ${bastion.metadata?.namespace}/${bastion.metadata?.name} has no spec.providerType`);
  }
  return {
    type,
    userData: Buffer.from(renderUserData(bastion.spec.sshPublicKey)).toString('base64'),
    ingress: bastion.spec.ingress.map((policy) => ({
      ipBlock: {
        cidr: policy.ipBlock.cidr,
        ...(policy.ipBlock.except ? { except: [...policy.ipBlock.except] } : {}),
      },
    })),
  };
}

/** The extension Bastion with its reconcile request, stamped `now` (RFC 3339 with fractions). */
export function renderExtensionBastion(bastion: CoreBastion, shoot: Shoot, now: Date): ExtensionBastion {
  return {
    apiVersion: 'extensions.gardener.cloud/v1alpha1',
    kind: 'Bastion',
    metadata: {
      ...extensionKey(bastion, shoot),
      annotations: {
        [Annotations.GardenerOperation]: Operations.OperationReconcile,
        [Annotations.GardenerTimestamp]: now.toISOString(),
      },
    },
    spec: extensionSpec(bastion),
  };
}
