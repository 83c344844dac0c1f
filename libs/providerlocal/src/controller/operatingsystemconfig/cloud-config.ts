// The user data provider-local renders for a machine from an OperatingSystemConfig with purpose `provision`: a
// `#cloud-config` (cloud-init's format, as Gardener's provider-local renders) whose `write_files` carry the OSC's
// files, unit files and drop-ins, and whose `runcmd` reloads systemd, enables the units and brings each to its command.
// Pure. Files marked `transmitUnencoded` (the `<<BOOTSTRAP_TOKEN>>` placeholder the machine controller replaces per
// machine) are written in clear text; all others base64-encoded.
import { stringify } from 'yaml';

/** A file whose content is already resolved (from inline or from a referenced Secret). */
export interface UserDataFile {
  path: string;
  /** The file's bytes. */
  content: Buffer;
  permissions?: number;
  transmitUnencoded?: boolean;
}

/** A unit as the OSC names it. */
export interface UserDataUnit {
  name: string;
  content?: string;
  command?: string;
  enable?: boolean;
  dropIns?: { name: string; content: string }[];
}

/** The systemd directory unit files are written to. */
export const SystemdUnitDirectory = '/etc/systemd/system';

/** Renders the cloud-config; see the file header. */
export function renderCloudConfig(units: UserDataUnit[], files: UserDataFile[]): string {
  const writeFiles: Record<string, unknown>[] = [];
  for (const file of files) {
    writeFiles.push({
      path: file.path,
      permissions: `0${(file.permissions ?? 0o644).toString(8)}`,
      ...(file.transmitUnencoded
        ? { content: file.content.toString('utf8') }
        : { encoding: 'b64', content: file.content.toString('base64') }),
    });
  }
  const runcmd: string[] = ['systemctl daemon-reload'];
  for (const unit of units) {
    if (unit.content !== undefined) {
      writeFiles.push({
        path: `${SystemdUnitDirectory}/${unit.name}`,
        permissions: '0644',
        encoding: 'b64',
        content: Buffer.from(unit.content).toString('base64'),
      });
    }
    for (const dropIn of unit.dropIns ?? []) {
      writeFiles.push({
        path: `${SystemdUnitDirectory}/${unit.name}.d/${dropIn.name}`,
        permissions: '0644',
        encoding: 'b64',
        content: Buffer.from(dropIn.content).toString('base64'),
      });
    }
  }
  for (const unit of units) {
    if (unit.enable !== false) runcmd.push(`systemctl enable '${unit.name}'`);
    const command = unit.command ?? 'restart';
    if (command === 'start' || command === 'restart' || command === 'stop')
      runcmd.push(`systemctl ${command} '${unit.name}'`);
  }
  return `#cloud-config\n${stringify({ write_files: writeFiles, runcmd }, { lineWidth: 0 })}`;
}
