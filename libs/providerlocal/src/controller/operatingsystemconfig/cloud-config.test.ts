import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { renderCloudConfig } from './cloud-config.js';

describe('renderCloudConfig', () => {
  it('renders files, units and drop-ins as cloud-config, the bootstrap token placeholder in clear text', () => {
    const text = renderCloudConfig(
      [
        {
          name: 'gardener-node-init.service',
          command: 'start',
          enable: true,
          content: '[Service]\nExecStart=/var/lib/gardener-node-agent/init.sh\n',
        },
        { name: 'containerd.service', dropIns: [{ name: '10-opts.conf', content: '[Service]\nEnvironment=A=b\n' }] },
        { name: 'old.service', command: 'stop', enable: false },
      ],
      [
        {
          path: '/var/lib/gardener-node-agent/credentials/bootstrap-token',
          content: Buffer.from('<<BOOTSTRAP_TOKEN>>'),
          transmitUnencoded: true,
          permissions: 0o640,
        },
        {
          path: '/var/lib/gardener-node-agent/init.sh',
          content: Buffer.from('#!/bin/bash\necho hi\n'),
          permissions: 0o755,
        },
      ],
    );
    expect(text.startsWith('#cloud-config\n')).toBe(true);
    expect(text).toContain('<<BOOTSTRAP_TOKEN>>');
    const doc = parse(text);
    expect(doc.write_files).toEqual([
      {
        path: '/var/lib/gardener-node-agent/credentials/bootstrap-token',
        permissions: '0640',
        content: '<<BOOTSTRAP_TOKEN>>',
      },
      {
        path: '/var/lib/gardener-node-agent/init.sh',
        permissions: '0755',
        encoding: 'b64',
        content: Buffer.from('#!/bin/bash\necho hi\n').toString('base64'),
      },
      {
        path: '/etc/systemd/system/gardener-node-init.service',
        permissions: '0644',
        encoding: 'b64',
        content: Buffer.from('[Service]\nExecStart=/var/lib/gardener-node-agent/init.sh\n').toString('base64'),
      },
      {
        path: '/etc/systemd/system/containerd.service.d/10-opts.conf',
        permissions: '0644',
        encoding: 'b64',
        content: Buffer.from('[Service]\nEnvironment=A=b\n').toString('base64'),
      },
    ]);
    expect(doc.runcmd).toEqual([
      'systemctl daemon-reload',
      "systemctl enable 'gardener-node-init.service'",
      "systemctl start 'gardener-node-init.service'",
      "systemctl enable 'containerd.service'",
      "systemctl restart 'containerd.service'",
      "systemctl stop 'old.service'",
    ]);
  });
});
