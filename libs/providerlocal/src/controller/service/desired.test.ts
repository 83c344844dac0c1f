import { describe, expect, it } from 'vitest';
import {
  IstioIngressGateway,
  VirtualGardenIstioIngressGateway,
  desiredService,
  zoneIstioIngressGateway,
  type SeedFacts,
} from './desired.js';

const facts: SeedFacts = {
  multiZone: false,
  virtualGardenGatewayExists: false,
  nodeIPs: ['10.0.0.1', '10.0.0.2'],
  controlPlaneNodeIPs: ['10.0.0.1'],
};
const gatewayPorts = [
  { name: 'tcp', port: 443, nodePort: 31000 },
  { name: 'tls-tunnel', port: 8132, nodePort: 31001 },
  { name: 'http', port: 80, nodePort: 31002 },
];

describe('desiredService', () => {
  it("pins the istio gateways' tcp and tls-tunnel node ports and leaves other ports alone", () => {
    expect(desiredService(IstioIngressGateway, { ports: gatewayPorts }, facts, {}).ports).toEqual([
      { name: 'tcp', port: 443, nodePort: 30443 },
      { name: 'tls-tunnel', port: 8132, nodePort: 32132 },
      { name: 'http', port: 80, nodePort: 31002 },
    ]);
    expect(
      desiredService(zoneIstioIngressGateway(2), { ports: gatewayPorts }, facts, {}).ports?.map((p) => p.nodePort),
    ).toEqual([30446, 32135, 31002]);
    expect(
      desiredService(VirtualGardenIstioIngressGateway, { ports: gatewayPorts }, facts, {}).ports?.map(
        (p) => p.nodePort,
      ),
    ).toEqual([31443, 31001, 31002]);
  });

  it('changes nothing of a Service that has its ports already, nor of any other Service, without addresses', () => {
    const pinned = [{ name: 'tcp', port: 443, nodePort: 30443 }];
    expect(desiredService(IstioIngressGateway, { ports: pinned }, facts, {})).toEqual({});
    expect(
      desiredService('shoot--p--s/kube-apiserver', { ports: [{ name: 'kube-apiserver', port: 443 }] }, facts, {}),
    ).toEqual({});
  });

  it('sets externalTrafficPolicy Local on the main and virtual garden gateways of a multi-zone seed', () => {
    const multi = { ...facts, multiZone: true };
    expect(desiredService(IstioIngressGateway, { ports: [] }, multi, {}).externalTrafficPolicy).toBe('Local');
    expect(desiredService(VirtualGardenIstioIngressGateway, { ports: [] }, multi, {}).externalTrafficPolicy).toBe(
      'Local',
    );
    expect(desiredService(zoneIstioIngressGateway(0), { ports: [] }, multi, {}).externalTrafficPolicy).toBeUndefined();
    expect(
      desiredService(IstioIngressGateway, { ports: [], externalTrafficPolicy: 'Local' }, multi, {})
        .externalTrafficPolicy,
    ).toBeUndefined();
  });

  it('reports the configured addresses, the host address last', () => {
    const addresses = { hostIP: '172.18.255.1', zoneIPs: ['172.18.255.10', undefined, '172.18.255.12'] as const };
    expect(desiredService(IstioIngressGateway, {}, facts, addresses).ingressIPs).toEqual([
      '10.0.0.1',
      '10.0.0.2',
      '172.18.255.1',
    ]);
    expect(
      desiredService(IstioIngressGateway, {}, { ...facts, virtualGardenGatewayExists: true }, addresses).ingressIPs,
    ).toEqual(['172.18.255.1']);
    expect(desiredService(VirtualGardenIstioIngressGateway, {}, facts, addresses).ingressIPs).toEqual(['10.0.0.1']);
    expect(desiredService(zoneIstioIngressGateway(0), {}, facts, addresses).ingressIPs).toEqual(['172.18.255.10']);
    expect(desiredService(zoneIstioIngressGateway(1), {}, facts, addresses).ingressIPs).toBeUndefined();
    expect(desiredService('shoot--p--s/kube-apiserver', {}, facts, addresses).ingressIPs).toEqual(['172.18.255.1']);
  });
});
