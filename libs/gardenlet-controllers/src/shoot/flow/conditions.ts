// The facts about a Shoot and its Seed that decide which tasks of Gardener's shoot flows run (the `SkipIf`s of
// `reconciler_reconcile.go` / `reconciler_delete.go`), computed once from the objects. Pure.
import { Annotations, type Seed, type Shoot } from '@gardener-ts/api';
import { hibernationEnabled, isWorkerless } from '../../component/values.js';

/** The task annotation value that asks the flow to restart the control plane pods. */
export const ShootTaskRestartControlPlanePods = 'restartControlPlanePods';

/** The facts the reconcile and delete flows branch on. */
export interface FlowConditions {
  readonly workerless: boolean;
  readonly hibernationEnabled: boolean;
  /** `status.hibernated`: the shoot is hibernated (its control plane scaled down). */
  readonly hibernated: boolean;
  /** `shoot.gardener.cloud/skip-readiness` is set: wait tasks are skipped. */
  readonly skipReadiness: boolean;
  /** The seed has backup configured. */
  readonly allowBackup: boolean;
  /** The operation is a restore (second half of a control plane migration). */
  readonly restoring: boolean;
  /** The nodes network is known (spec and status), so kube-apiserver need not wait for the infrastructure. */
  readonly hasNodesCIDR: boolean;
  readonly kubeProxyEnabled: boolean;
  readonly sshAccessEnabled: boolean;
  readonly managedServiceAccountIssuer: boolean;
  readonly nginxIngressEnabled: boolean;
  readonly restartControlPlanePods: boolean;
  /** Service account key rotation is in a preparing phase (new signing key, secrets renewed). */
  readonly serviceAccountKeyPreparing: boolean;
  readonly serviceAccountKeyCompleting: boolean;
  /** ETCD encryption key rotation is Preparing (encrypted data rewritten with the new key). */
  readonly etcdEncryptionKeyPreparing: boolean;
  /** ETCD encryption key rotation is Completing (the old key is dropped, the rewrite label removed). */
  readonly etcdEncryptionKeyCompleting: boolean;
  /** Backups must be copied from the source seed (restore with a different backup bucket). */
  readonly copyOfBackupsRequired: boolean;
  /** Whether kube-apiserver can enable the node-agent authorizer webhook in its first deployment. */
  readonly canEnableNodeAgentAuthorizer: boolean;
}

/** Options of {@link flowConditions} that do not follow from the objects alone. */
export interface FlowConditionOptions {
  readonly restoring?: boolean;
  readonly copyOfBackupsRequired?: boolean;
  readonly canEnableNodeAgentAuthorizer?: boolean;
}

/** The flow conditions of a Shoot on a Seed. */
export function flowConditions(shoot: Shoot, seed: Seed, options: FlowConditionOptions = {}): FlowConditions {
  const annotations = shoot.metadata?.annotations ?? {};
  const skipReadiness = Annotations.ShootSkipReadiness in annotations;
  const tasks = (annotations[Annotations.ShootTasks] ?? '').split(',').map((t) => t.trim());
  const saPhase = shoot.status?.credentials?.rotation?.serviceAccountKey?.phase;
  const workerless = isWorkerless(shoot);
  return {
    workerless,
    hibernationEnabled: hibernationEnabled(shoot),
    hibernated: shoot.status?.hibernated === true,
    skipReadiness,
    allowBackup: seed.spec.backup !== undefined,
    restoring: options.restoring === true,
    hasNodesCIDR:
      shoot.spec.networking?.nodes !== undefined && (shoot.status?.networking !== undefined || skipReadiness),
    kubeProxyEnabled: shoot.spec.kubernetes.kubeProxy?.enabled !== false,
    sshAccessEnabled: !workerless && shoot.spec.provider.workersSettings?.sshAccess?.enabled !== false,
    managedServiceAccountIssuer: annotations[Annotations.AuthenticationIssuer] === 'managed',
    nginxIngressEnabled: shoot.spec.addons?.nginxIngress?.enabled === true,
    restartControlPlanePods: tasks.includes(ShootTaskRestartControlPlanePods),
    serviceAccountKeyPreparing: saPhase === 'Preparing' || saPhase === 'PreparingWithoutWorkersRollout',
    serviceAccountKeyCompleting: saPhase === 'Completing',
    etcdEncryptionKeyPreparing: shoot.status?.credentials?.rotation?.etcdEncryptionKey?.phase === 'Preparing',
    etcdEncryptionKeyCompleting: shoot.status?.credentials?.rotation?.etcdEncryptionKey?.phase === 'Completing',
    copyOfBackupsRequired: options.copyOfBackupsRequired === true,
    canEnableNodeAgentAuthorizer: options.canEnableNodeAgentAuthorizer !== false,
  };
}
