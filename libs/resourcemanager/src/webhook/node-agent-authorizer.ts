// The node-agent authorizer (Gardener's pkg/resourcemanager/webhook/nodeagentauthorizer): decides what a
// gardener-node-agent may do in the target cluster — its own Node, its own Lease, its OperatingSystemConfig Secret,
// Events, its CSRs and the Pods on its Node. Other users get no opinion (the API server asks its next authorizer).
// Reads go through `NodeAgentReads`; a failed read is an evaluation error, not a denial.
import type { AuthorizationAttributes, Decision, UserInfo } from './subject-access-review.js';

export const NodeAgentAuthorizerPath = '/webhooks/auth/nodeagent';
export const NodeAgentsGroup = 'gardener.cloud:node-agents';
export const NodeAgentUserNamePrefix = 'gardener.cloud:node-agent:machine:';
/** Label of a Machine's node template (and Node) naming the node-agent's OperatingSystemConfig Secret. */
export const LabelNodeAgentSecretName = 'worker.gardener.cloud/gardener-node-agent-secret-name';
export const LabelWorkerPool = 'worker.gardener.cloud/pool';
/** machine-controller-manager's label on a Machine naming its Node. */
export const MachineNodeLabel = 'node';
const ValitailTokenSecretName = 'gardener-valitail';
const KubeSystem = 'kube-system';

export interface MachineInfo {
  labels: Record<string, string>;
  nodeTemplateLabels: Record<string, string>;
}

export interface NodeAgentReads {
  /** The Machine (throws when it cannot be read, also when it does not exist). */
  machine(namespace: string, name: string): Promise<MachineInfo>;
  /** The Node's labels, undefined when it does not exist. */
  node(name: string): Promise<{ labels: Record<string, string> } | undefined>;
  /** The Pod's `spec.nodeName` (throws when it cannot be read). */
  podNodeName(namespace: string, name: string): Promise<string>;
  /** The CSR's `spec.username` (throws when it cannot be read). */
  csrUsername(name: string): Promise<string>;
  /** Names of the target's Secrets labelled with `key` (any value). */
  secretNamesWithLabel(key: string): Promise<string[]>;
}

export interface NodeAgentAuthorizerOptions {
  /** Namespace of the Machines in the source cluster; without it the machine name is taken as the node name. */
  machineNamespace?: string;
  authorizeWithSelectors: boolean;
  reads: NodeAgentReads;
}

export interface AuthorizerResult {
  decision: Decision;
  reason: string;
}

/** The machine name of a gardener-node-agent user (prefix and group both required), undefined for other users. */
export function nodeAgentMachineName(user: UserInfo): string | undefined {
  if (!user.name.startsWith(NodeAgentUserNamePrefix) || !user.groups.includes(NodeAgentsGroup)) return undefined;
  return user.name.slice(NodeAgentUserNamePrefix.length);
}

const allow: AuthorizerResult = { decision: 'Allow', reason: '' };
const deny = (reason = ''): AuthorizerResult => ({ decision: 'Deny', reason });
/** Go's `%v` of a string slice. */
const list = (values: string[]) => `[${values.join(' ')}]`;

function checkSubresource(attrs: AuthorizationAttributes, ...allowed: string[]): AuthorizerResult | undefined {
  if (attrs.subresource && !allowed.includes(attrs.subresource))
    return deny(`only the following subresources are allowed for this resource type: ${list(allowed)}`);
  return undefined;
}

function checkVerb(attrs: AuthorizationAttributes, ...allowed: string[]): AuthorizerResult | undefined {
  if (!allowed.includes(attrs.verb))
    return deny(`only the following verbs are allowed for this resource type: ${list(allowed)}`);
  return undefined;
}

const wrap = (message: string) => (err: unknown) => {
  throw new Error(`${message}: ${(err as Error).message}`);
};

class Decider {
  constructor(
    private readonly o: NodeAgentAuthorizerOptions,
    private readonly attrs: AuthorizationAttributes,
    private readonly machineName: string,
  ) {}

  /** The node of the machine; a reason instead when there is none. */
  private async nodeName(): Promise<{ nodeName: string } | { denied: AuthorizerResult }> {
    let nodeName: string;
    if (this.o.machineNamespace !== undefined) {
      const machine = await this.o.reads
        .machine(this.o.machineNamespace, this.machineName)
        .catch(wrap(`error getting machine "${this.machineName}"`));
      nodeName = machine.labels[MachineNodeLabel] ?? '';
    } else {
      const node = await this.o.reads.node(this.machineName).catch(wrap(`error getting node "${this.machineName}"`));
      nodeName = node ? this.machineName : '';
    }
    if (nodeName === '') return { denied: deny(`no node for "${this.machineName}" found`) };
    return { nodeName };
  }

  async csr(): Promise<AuthorizerResult> {
    const refused = checkSubresource(this.attrs) ?? checkVerb(this.attrs, 'get', 'create');
    if (refused) return refused;
    if (this.attrs.verb === 'create') return allow;
    const username = await this.o.reads.csrUsername(this.attrs.name);
    if (username !== this.attrs.user.name)
      return deny(
        `gardener-node-agent is only allowed to read or request CSRs for its own user "${this.attrs.user.name}"`,
      );
    return allow;
  }

  event(): AuthorizerResult {
    return checkSubresource(this.attrs) ?? checkVerb(this.attrs, 'create', 'patch') ?? allow;
  }

  async lease(): Promise<AuthorizerResult> {
    const refused = checkSubresource(this.attrs) ?? checkVerb(this.attrs, 'get', 'list', 'watch', 'create', 'update');
    if (refused) return refused;
    const node = await this.nodeName();
    if ('denied' in node) return node.denied;
    const allowedLease = `gardener-node-agent-${node.nodeName}`;
    if ((this.attrs.verb !== 'create' && this.attrs.name !== allowedLease) || this.attrs.namespace !== KubeSystem) {
      return deny(`this gardener-node-agent can only access lease "${allowedLease}" in "${KubeSystem}" namespace`);
    }
    return allow;
  }

  async node(): Promise<AuthorizerResult> {
    const refused =
      checkSubresource(this.attrs, 'status') ?? checkVerb(this.attrs, 'get', 'list', 'watch', 'patch', 'update');
    if (refused) return refused;
    // The node-agent knows its host name, not its node name: listing and watching Nodes is always allowed.
    if (this.attrs.verb === 'list' || this.attrs.verb === 'watch') return allow;
    const node = await this.nodeName();
    if ('denied' in node) return node.denied;
    if (this.attrs.name !== node.nodeName)
      return deny(`this gardener-node-agent can only access node "${node.nodeName}"`);
    return allow;
  }

  async pod(): Promise<AuthorizerResult> {
    const refused = checkSubresource(this.attrs) ?? checkVerb(this.attrs, 'get', 'list', 'watch', 'delete');
    if (refused) return refused;
    const node = await this.nodeName();
    if ('denied' in node) return node.denied;
    if (this.attrs.verb === 'get' || this.attrs.verb === 'delete') return this.singlePod(node.nodeName);
    if (!this.o.authorizeWithSelectors) return allow;
    if (this.attrs.fieldSelectorError)
      throw new Error(`error parsing field selector: ${this.attrs.fieldSelectorError}`);
    if (
      this.attrs.fieldSelector.some(
        (r) => r.field === 'spec.nodeName' && r.operator === '=' && r.value === node.nodeName,
      )
    )
      return allow;
    if (this.attrs.name !== '') return this.singlePod(node.nodeName);
    return deny(`can only list/watch pods with spec.nodeName=${node.nodeName} field selector`);
  }

  private async singlePod(nodeName: string): Promise<AuthorizerResult> {
    const key = `${this.attrs.namespace}/${this.attrs.name}`;
    const podNode = await this.o.reads
      .podNodeName(this.attrs.namespace, this.attrs.name)
      .catch(wrap(`error getting pod "${key}"`));
    if (podNode !== nodeName) return deny(`pod "${key}" does not belong to node "${nodeName}"`);
    return allow;
  }

  async secret(): Promise<AuthorizerResult> {
    const refused = checkSubresource(this.attrs) ?? checkVerb(this.attrs, 'get', 'list', 'watch');
    if (refused) return refused;
    const valid = [ValitailTokenSecretName];
    if (this.o.machineNamespace !== undefined) {
      const machine = await this.o.reads
        .machine(this.o.machineNamespace, this.machineName)
        .catch(wrap(`error getting machine "${this.machineName}"`));
      valid.push(machine.nodeTemplateLabels[LabelNodeAgentSecretName] ?? '');
    } else {
      const node = await this.o.reads.node(this.machineName).catch(wrap(`error getting node "${this.machineName}"`));
      // Without a Node the node-agent is still bootstrapping and may read any worker pool's OSC Secret.
      if (node) valid.push(node.labels[LabelNodeAgentSecretName] ?? '');
      else
        valid.push(
          ...(await this.o.reads
            .secretNamesWithLabel(LabelWorkerPool)
            .catch(wrap('error listing operating system config secrets'))),
        );
    }
    if (!valid.includes(this.attrs.name) || this.attrs.namespace !== KubeSystem) {
      return deny(`gardener-node-agent can only access secrets ${list(valid)} in "${KubeSystem}" namespace`);
    }
    return allow;
  }
}

/** Gardener's decision for a request; throws (an evaluation error) when something it needs cannot be read. */
export async function authorizeNodeAgent(
  attrs: AuthorizationAttributes,
  o: NodeAgentAuthorizerOptions,
): Promise<AuthorizerResult> {
  const machineName = nodeAgentMachineName(attrs.user);
  if (machineName === undefined) return { decision: 'NoOpinion', reason: '' };
  if (machineName === '') return deny();
  if (!attrs.resourceRequest) return deny();
  const d = new Decider(o, attrs, machineName);
  switch (`${attrs.group}/${attrs.resource}`) {
    case 'certificates.k8s.io/certificatesigningrequests':
      return d.csr();
    case '/events':
    case 'events.k8s.io/events':
      return d.event();
    case 'coordination.k8s.io/leases':
      return d.lease();
    case '/nodes':
      return d.node();
    case '/pods':
      return d.pod();
    case '/secrets':
      return d.secret();
    default:
      return deny();
  }
}
