import { describe, expect, it } from 'vitest';
import { isServedService } from './add.js';

describe('isServedService', () => {
  it('serves the istio ingress gateways, zone gateways included', () => {
    expect(isServedService({ app: 'istio-ingressgateway', istio: 'ingressgateway' })).toBe(true);
    expect(isServedService({ app: 'istio-ingressgateway', istio: 'ingressgateway--zone--1' })).toBe(true);
    expect(isServedService({ app: 'istio-ingressgateway', istio: 'ingressgateway--zone--3' })).toBe(false);
    expect(isServedService({ app: 'istio-ingressgateway' })).toBe(false);
  });

  it("serves a shoot's kube-apiserver unless Gardener's istio exposes it", () => {
    expect(isServedService({ app: 'kubernetes', role: 'apiserver' })).toBe(true);
    expect(
      isServedService({
        app: 'kubernetes',
        role: 'apiserver',
        'core.gardener.cloud/apiserver-exposure': 'gardener-managed',
      }),
    ).toBe(false);
    expect(isServedService({ app: 'nginx' })).toBe(false);
    expect(isServedService(undefined)).toBe(false);
  });
});
