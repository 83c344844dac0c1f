import { describe, expect, it } from 'vitest';
import { shoot } from '../../test/fixtures.js';
import { isSelfHostedShoot } from './self-hosted.js';

describe('self-hosted shoots', () => {
  it('a shoot with a control plane worker pool is self-hosted', () => {
    expect(isSelfHostedShoot(shoot('s', (x) => (x.spec.provider.workers![0].controlPlane = {})))).toBe(true);
  });

  it('a shoot with ordinary worker pools is not, nor a workerless one', () => {
    expect(isSelfHostedShoot(shoot('s'))).toBe(false);
    expect(isSelfHostedShoot(shoot('s', (x) => delete x.spec.provider.workers))).toBe(false);
  });
});
