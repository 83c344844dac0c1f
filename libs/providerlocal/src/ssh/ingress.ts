// The bastion's firewall (a pure decision): a client may connect when its address lies in one of the Bastion's
// `spec.ingress[].ipBlock.cidr` ranges and in none of that block's `except` ranges — what a provider's security group
// for TCP 22 allows. IPv4 clients seen through a dual-stack socket (`::ffff:a.b.c.d`) count as IPv4.
import { IPNet } from '@gardener-ts/api';

/** One entry of a Bastion's `spec.ingress` (Kubernetes' NetworkPolicy IPBlock). */
export interface BastionIngressPolicy {
  ipBlock: { cidr: string; except?: string[] };
}

/** The address as the ranges compare it: an IPv4-mapped IPv6 address as its IPv4 address. */
export function normalizeAddress(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return mapped ? mapped[1]! : address;
}

/** Whether a client from `address` may connect under `ingress` (no policies: nobody may). Bad CIDRs match nothing. */
export function ingressAllows(ingress: readonly BastionIngressPolicy[], address: string): boolean {
  const ip = normalizeAddress(address);
  return ingress.some(
    ({ ipBlock }) =>
      (IPNet.tryParse(ipBlock.cidr)?.contains(ip) ?? false) &&
      !(ipBlock.except ?? []).some((cidr) => IPNet.tryParse(cidr)?.contains(ip) ?? false),
  );
}
