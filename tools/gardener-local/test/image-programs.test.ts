// The local images' programs as built (dist/tools/gardener-local/images, see src/images): each runs on its own as the
// image map starts it, and the kubelet a shoot machine loads from there gives its Pods the pod network preload, so
// two replicas on one machine each listen on their own address and workspace paths stay where they are.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { workspaceRoot } from '@gardener-ts/testing';

const images = join(workspaceRoot(), 'dist/tools/gardener-local/images');
const run = promisify(execFile);

describe.skipIf(!existsSync(join(images, 'kubelet.js')))("the local images' programs", () => {
  it("the machine kubelet finds the pod network preload that knows the workspace (never mapped into a Pod's volume)", async () => {
    const kubelet = (await import(pathToFileURL(join(images, 'kubelet.js')).href)) as {
      podNetworkPreload: () => string | undefined;
    };
    const preload = kubelet.podNetworkPreload();
    expect(preload).toBe(join(images, '..', 'pod-network.mjs'));
    // The preload leaves paths under the folder three levels up alone (pod-network.mjs, "hostRoots"): the workspace,
    // where a gardenlet on a shoot's node finds its charts and CRDs even when the workspace lies under /tmp.
    expect(resolve(dirname(preload!), '../../..')).toBe(workspaceRoot());
  });

  it.each([
    ['kube-apiserver', /--data-dir/],
    ['kube-controller-manager', /--kubeconfig is required/],
    ['kube-scheduler', /--kubeconfig/],
    ['kube-proxy', /--kubeconfig/],
  ])('%s runs alone and refuses a call without flags with its usage', async (program, usage) => {
    const failed = await run(process.execPath, [join(images, `${program}.js`)]).then(
      () => undefined,
      (err: { code?: number; stderr?: string }) => err,
    );
    expect(failed?.code).toBe(2);
    expect(failed?.stderr).toMatch(usage);
  });
});
