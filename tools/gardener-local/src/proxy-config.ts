// kube-proxy's configuration file (KubeProxyConfiguration, kubeproxy.config.k8s.io/v1alpha1) as `gardener-local proxy
// --config` reads it: the client connection's kubeconfig, the healthz address and the node name override. The proxy
// mode (iptables, ipvs, nftables), conntrack, the cluster CIDR and the metrics address have no counterpart in the
// substrate's userspace proxy: every mode forwards on 127.0.0.1; they come back as ignored fields.
import { common, parseComponentConfig, type ComponentConfigSpec } from '@gardener-ts/component-config';
import { z } from 'zod';

const schema = z.object({
  apiVersion: z.string(),
  kind: z.string(),
  clientConnection: common.clientConnection,
  healthzBindAddress: z.string().default('0.0.0.0:10256'),
  hostnameOverride: z.string().optional(),
});

/** A KubeProxyConfiguration, defaulted as kube-proxy defaults it (for the fields read here). */
export type KubeProxyConfiguration = z.infer<typeof schema>;

const spec: ComponentConfigSpec<KubeProxyConfiguration> = {
  component: 'kube-proxy',
  apiVersion: 'kubeproxy.config.k8s.io/v1alpha1',
  kind: 'KubeProxyConfiguration',
  schema,
  runtime: () => ({
    logLevel: 'info',
    logFormat: 'json',
    healthProbes: { bindAddress: '', port: 10256 },
    metrics: { bindAddress: '', port: 10249 },
  }),
};

/** What `gardener-local proxy` takes from a KubeProxyConfiguration, and what it cannot honour. */
export interface KubeProxySettings {
  kubeconfig?: string;
  healthzBindAddress?: string;
  /** Field paths of the file without effect here (mode, conntrack, clusterCIDR, metrics, ...). */
  ignored: string[];
}

/** Parses and defaults a KubeProxyConfiguration file's text; throws a ConfigError naming the bad fields. */
export function parseKubeProxyConfiguration(text: string, file = '<inline>'): KubeProxySettings {
  const { config, ignoredFields } = parseComponentConfig(spec, text, file);
  return {
    ...(config.clientConnection.kubeconfig ? { kubeconfig: config.clientConnection.kubeconfig } : {}),
    healthzBindAddress: config.healthzBindAddress,
    ignored: ignoredFields,
  };
}
