// From the OperatingSystemConfig gardenlet stores for a worker pool (Secret `gardener-node-agent-<pool>` in the shoot's
// kube-system, key `osc.yaml`) to the configuration a node applies: `spec.units` with `status.extensionUnits` and
// `spec.files` with `status.extensionFiles` merged (as Gardener's node-agent does), file contents resolved from
// `content.inline` (plain or `b64`/`base64` encoded). `secretRef` contents are inlined by gardenlet before the OSC
// reaches the node and `imageRef` (extracting a file from a container image) needs a container runtime: both are
// refused with a message naming the file.
import { parse } from 'yaml';
import type { extensionsv1alpha1 } from '@gardener-ts/api';

type OperatingSystemConfig = extensionsv1alpha1.OperatingSystemConfig;
import { DefaultFilePermissions, type NodeConfig, type OSCFile, type OSCUnit, type ResolvedFile } from './types.js';

/** The key of the OSC in gardenlet's Secret for node-agent. */
export const OSCSecretDataKey = 'osc.yaml';
/** The annotation carrying the checksum of the OSC in that Secret. */
export const OSCChecksumAnnotation = 'checksum/data-script';
/** The Node annotation node-agent sets to the checksum of the OSC it applied (gardenlet waits for it). */
export const NodeCloudConfigChecksumAnnotation = 'checksum/cloud-config-data';

/** Parses the `osc.yaml` of node-agent's Secret. */
export function parseOSC(yamlText: string): OperatingSystemConfig {
  const osc = parse(yamlText) as OperatingSystemConfig | null;
  if (!osc || typeof osc !== 'object' || typeof osc.spec !== 'object' || osc.spec === null) {
    throw new Error('osc.yaml does not hold an OperatingSystemConfig with a spec');
  }
  return osc;
}

/** Resolves one OSC file's content. */
export function resolveFile(file: OSCFile): ResolvedFile {
  const { inline, secretRef, imageRef } = file.content ?? {};
  let contentBase64: string;
  if (inline) {
    const encoding = inline.encoding ?? '';
    if (encoding === '') contentBase64 = Buffer.from(inline.data ?? '').toString('base64');
    else if (encoding === 'b64' || encoding === 'base64')
      contentBase64 = Buffer.from(inline.data ?? '', 'base64').toString('base64');
    else
      throw new Error(
        `file ${file.path}: content.inline.encoding ${JSON.stringify(encoding)} is not supported (use "" or "b64")`,
      );
  } else if (secretRef) {
    throw new Error(`file ${file.path}: content.secretRef is resolved by gardenlet; node-agent expects inline content`);
  } else if (imageRef) {
    throw new Error(
      `file ${file.path}: content.imageRef (${imageRef.image}) needs a container runtime, which local machines do not have`,
    );
  } else {
    throw new Error(`file ${file.path}: content has neither inline, secretRef nor imageRef`);
  }
  return { path: file.path, contentBase64, permissions: file.permissions ?? DefaultFilePermissions };
}

/** The node configuration of an OSC: units and files of spec and status merged (status wins on equal names/paths). */
export function nodeConfigFromOSC(osc: OperatingSystemConfig): NodeConfig {
  const units = new Map<string, OSCUnit>();
  for (const unit of [...(osc.spec.units ?? []), ...(osc.status?.extensionUnits ?? [])]) units.set(unit.name, unit);
  const files = new Map<string, ResolvedFile>();
  for (const file of [...(osc.spec.files ?? []), ...(osc.status?.extensionFiles ?? [])])
    files.set(file.path, resolveFile(file));
  return { units: [...units.values()], files: [...files.values()] };
}
