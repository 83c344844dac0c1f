// provider-local's control plane webhook ensurer (Gardener's): in the OperatingSystemConfig that carries the kubelet's
// configuration file (`/var/lib/kubelet/config/kubelet`), `failSwapOn` is set to false whatever the Shoot says, because
// local machines share the host's memory and swap. The file keeps its encoding.
import { parse, stringify } from 'yaml';
import type { ControlPlaneEnsurer, EnsurerContext, OperatingSystemConfigObject } from '@gardener-ts/extensions';

/** Where Gardener writes the kubelet's configuration in the OSC. */
export const KubeletConfigPath = '/var/lib/kubelet/config/kubelet';

/** The ensurer of provider-local's control plane webhook. */
export class LocalEnsurer implements ControlPlaneEnsurer {
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
