// What the node-agent authorizer reads, from the API servers: Machines in the source cluster; Nodes, Pods, CSRs and
// operating-system-config Secrets in the target cluster.
import { isNotFound, kind, type KubernetesObject, type Reader } from '@gardener-ts/controller-runtime';
import type { NodeAgentReads } from './node-agent-authorizer.js';

const MachineK = kind<
  KubernetesObject & { spec?: { nodeTemplate?: { metadata?: { labels?: Record<string, string> } } } }
>('machine.sapcloud.io/v1alpha1', 'Machine');
const NodeK = kind('v1', 'Node');
const PodK = kind<KubernetesObject & { spec?: { nodeName?: string } }>('v1', 'Pod');
const CSRK = kind<KubernetesObject & { spec?: { username?: string } }>(
  'certificates.k8s.io/v1',
  'CertificateSigningRequest',
);
const SecretK = kind('v1', 'Secret');

export function apiNodeAgentReads(source: Reader, target: Reader): NodeAgentReads {
  return {
    async machine(namespace, name) {
      const m = await source.get(MachineK, { namespace, name });
      return { labels: m.metadata?.labels ?? {}, nodeTemplateLabels: m.spec?.nodeTemplate?.metadata?.labels ?? {} };
    },
    async node(name) {
      try {
        const n = await target.get(NodeK, { name });
        return { labels: n.metadata?.labels ?? {} };
      } catch (err) {
        if (isNotFound(err)) return undefined;
        throw err;
      }
    },
    async podNodeName(namespace, name) {
      return (await target.get(PodK, { namespace, name })).spec?.nodeName ?? '';
    },
    async csrUsername(name) {
      return (await target.get(CSRK, { name })).spec?.username ?? '';
    },
    async secretNamesWithLabel(key) {
      const secrets = await target.list(SecretK, { labelSelector: key });
      return secrets.items.map((s) => s.metadata?.name ?? '');
    },
  };
}
