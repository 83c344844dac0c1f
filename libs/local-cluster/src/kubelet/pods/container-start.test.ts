import { describe, expect, it } from 'vitest';
import { keepPodNetworkPreload } from './container-start.js';

describe('keepPodNetworkPreload', () => {
  const base = { NODE_OPTIONS: '--import=/x/pod-network.mjs', GARDENER_LOCAL_POD_IP: '127.1.0.5' };

  it("appends the pod network preload to a container's own NODE_OPTIONS", () => {
    expect(keepPodNetworkPreload({ ...base, NODE_OPTIONS: '--max-old-space-size=256' }, base).NODE_OPTIONS).toBe(
      '--max-old-space-size=256 --import=/x/pod-network.mjs',
    );
  });

  it('leaves the environment alone when the container sets no NODE_OPTIONS or already has the preload', () => {
    expect(keepPodNetworkPreload(base, base)).toBe(base);
    const own = { NODE_OPTIONS: '--import=/x/pod-network.mjs --cpu-prof' };
    expect(keepPodNetworkPreload(own, base)).toBe(own);
  });

  it('adds nothing for a Pod on the host network (no preload)', () => {
    const env = { NODE_OPTIONS: '--cpu-prof' };
    expect(keepPodNetworkPreload(env, { NODE_OPTIONS: '' })).toBe(env);
  });
});
