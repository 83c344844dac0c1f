// The node's view of an OperatingSystemConfig (extensions.gardener.cloud/v1alpha1): the units and files gardener-node-agent
// applies on a machine, with file contents already resolved to bytes (Gardener's node-agent does the same before it
// compares the new configuration with the last applied one).
import type { extensionsv1alpha1 } from '@gardener-ts/api';

type OperatingSystemConfigSpec = extensionsv1alpha1.OperatingSystemConfigSpec;

/** A unit of an OperatingSystemConfig (`spec.units[]`, `status.extensionUnits[]`). */
export type OSCUnit = NonNullable<OperatingSystemConfigSpec['units']>[number];
/** A file of an OperatingSystemConfig (`spec.files[]`, `status.extensionFiles[]`). */
export type OSCFile = NonNullable<OperatingSystemConfigSpec['files']>[number];
/** A drop-in of a unit. */
export type OSCDropIn = NonNullable<OSCUnit['dropIns']>[number];

/** A file with its content resolved: what is written to disk. */
export interface ResolvedFile {
  /** Absolute path on the node, e.g. `/var/lib/kubelet/config/kubelet`. */
  path: string;
  /** The file's bytes, base64 encoded (so binary files compare and persist exactly). */
  contentBase64: string;
  /** Unix mode; Gardener's default is 0644. */
  permissions: number;
}

/** The configuration a node applies: units and files of one OperatingSystemConfig, files resolved. */
export interface NodeConfig {
  units: OSCUnit[];
  files: ResolvedFile[];
}

/** Gardener's default file mode when an OSC file has no `permissions`. */
export const DefaultFilePermissions = 0o644;
