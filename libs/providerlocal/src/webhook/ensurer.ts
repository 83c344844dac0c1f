// provider-local's control plane webhook ensurer (Gardener's): in the OperatingSystemConfig that carries the kubelet's
// configuration file (`/var/lib/kubelet/config/kubelet`), `failSwapOn` is set to false whatever the Shoot says, because
// local machines share the host's memory and swap (the file keeps its encoding); the kube-scheduler Deployment's Pods
// get the label `injected-by: provider-local`, the mark by which one sees that provider webhooks reach the control plane
// Deployments. Gardener's ensurer also adds the provider sidecar to machine-controller-manager's Deployment and VPA,
// which a local seed does not have (provider-local's machine controller manages the machines), and sets the kubelet's
// `cgroupDriver: systemd` below Kubernetes 1.31, which the gardenlet's kubelet configuration has already.
import { parse, stringify } from 'yaml';
import type { Workload } from '@gardener-ts/controller-runtime';
import type { ControlPlaneEnsurer, EnsurerContext, OperatingSystemConfigObject } from '@gardener-ts/extensions';

/** Where Gardener writes the kubelet's configuration in the OSC. */
export const KubeletConfigPath = '/var/lib/kubelet/config/kubelet';

/** The label (key and value) the ensurer puts on the kube-scheduler's Pod template, as Gardener's provider-local. */
export const InjectedByLabel = { key: 'injected-by', value: 'provider-local' } as const;

/** The ensurer of provider-local's control plane webhook. */
export class LocalEnsurer implements ControlPlaneEnsurer {
  ensureKubeSchedulerDeployment(_ctx: EnsurerContext, deployment: Workload): void {
    const metadata = (((deployment.spec ??= {}).template ??= {}).metadata ??= {});
    metadata.labels = { ...metadata.labels, [InjectedByLabel.key]: InjectedByLabel.value };
  }

  ensureOperatingSystemConfig(_ctx: EnsurerContext, osc: OperatingSystemConfigObject): void {
    const file = osc.spec.files?.find((f) => f.path === KubeletConfigPath);
    const inline = file?.content.inline;
    if (!inline) return;
    const b64 = inline.encoding === 'b64' || inline.encoding === 'base64';
    const text = b64 ? Buffer.from(inline.data, 'base64').toString('utf8') : inline.data;
    const config = (parse(text) ?? {}) as Record<string, unknown>;
    if (config.failSwapOn === false) return;
    config.failSwapOn = false;
    const out = stringify(config);
    inline.data = b64 ? Buffer.from(out).toString('base64') : out;
  }
}
