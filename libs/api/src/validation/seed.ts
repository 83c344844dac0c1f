// validateSeed: networks, provider, DNS, ingress, backup, settings; immutable networks on update.
import type { Seed } from '../core/v1beta1/seed.js';
import { type FieldError, FieldPath, immutable, invalid, required } from './field.js';
import {
  type Network,
  validateCIDR,
  validateDisjoint,
  validateExtensions,
  validateIPFamilies,
  validateNamedResources,
  validateStringEnum,
  validateUnique,
} from './common.js';
import { dns1123SubdomainErrors, validateDNS1123Label, validateObjectMeta, validateObjectMetaUpdate } from './names.js';

const spec = FieldPath.root('spec');

export function validateSeed(seed: Seed, old?: Seed): FieldError[] {
  const errors = validateObjectMeta(seed.metadata, { namespaced: false, name: validateDNS1123Label });
  const s = seed.spec;
  if (!s) return [...errors, required(spec)];

  if (!s.provider?.type) errors.push(required(spec.child('provider', 'type'), 'must provide a provider type'));
  if (!s.provider?.region) errors.push(required(spec.child('provider', 'region'), 'must provide a provider region'));
  errors.push(...validateUnique(s.provider?.zones, spec.child('provider', 'zones'), (z) => z));

  errors.push(...validateSeedNetworks(s.networks));

  if (s.backup) {
    const p = spec.child('backup');
    if (!s.backup.provider) errors.push(required(p.child('provider'), 'must provide a backup cloud provider name'));
    if (!s.backup.credentialsRef)
      errors.push(required(p.child('credentialsRef'), 'must be set to refer a Secret or WorkloadIdentity'));
    else errors.push(...validateCredentialsRef(s.backup.credentialsRef, p.child('credentialsRef')));
  }

  if (s.dns?.provider) {
    const p = spec.child('dns', 'provider');
    if (!s.dns.provider.type) errors.push(required(p.child('type')));
    if (s.dns.provider.credentialsRef)
      errors.push(...validateCredentialsRef(s.dns.provider.credentialsRef, p.child('credentialsRef')));
  }
  for (const [i, config] of [s.dns?.internal, ...(s.dns?.defaults ?? [])].entries()) {
    if (!config) continue;
    const p = i === 0 ? spec.child('dns', 'internal') : spec.child('dns', 'defaults').index(i - 1);
    if (!config.type) errors.push(required(p.child('type')));
    if (!config.domain) errors.push(required(p.child('domain')));
    else
      errors.push(
        ...dns1123SubdomainErrors(config.domain).map((msg) => invalid(p.child('domain'), config.domain, msg)),
      );
    errors.push(...validateCredentialsRef(config.credentialsRef, p.child('credentialsRef')));
  }

  if (s.ingress) {
    const p = spec.child('ingress');
    if (!s.ingress.domain) errors.push(required(p.child('domain')));
    else
      errors.push(
        ...dns1123SubdomainErrors(s.ingress.domain).map((msg) => invalid(p.child('domain'), s.ingress?.domain, msg)),
      );
    errors.push(...validateStringEnum(s.ingress.controller?.kind, p.child('controller', 'kind'), ['nginx']));
    if (!s.dns?.provider)
      errors.push(required(spec.child('dns', 'provider'), 'must configure a DNS provider if .spec.ingress is enabled'));
  }

  (s.taints ?? []).forEach((taint, i) => {
    if (!taint.key) errors.push(required(spec.child('taints').index(i).child('key'), 'cannot be empty'));
  });
  errors.push(...validateUnique(s.taints, spec.child('taints'), (t) => t.key, 'key'));
  errors.push(...validateExtensions(s.extensions, spec.child('extensions')));
  errors.push(...validateNamedResources(s.resources, spec.child('resources')));
  errors.push(...validateUnique(s.accessRestrictions, spec.child('accessRestrictions'), (a) => a.name, 'name'));

  const lb = s.settings?.loadBalancerServices;
  if (lb?.externalTrafficPolicy !== undefined) {
    errors.push(
      ...validateStringEnum(
        lb.externalTrafficPolicy,
        spec.child('settings', 'loadBalancerServices', 'externalTrafficPolicy'),
        ['Cluster', 'Local'],
      ),
    );
  }
  (lb?.zones ?? []).forEach((zone, i) => {
    if (!(s.provider?.zones ?? []).includes(zone.name)) {
      errors.push(
        invalid(
          spec.child('settings', 'loadBalancerServices', 'zones').index(i).child('name'),
          zone.name,
          'zone name must be configured in seed .spec.provider.zones',
        ),
      );
    }
  });

  if (old) {
    errors.push(...validateObjectMetaUpdate(seed.metadata, old.metadata));
    errors.push(...validateSeedUpdate(seed, old));
  }
  return errors;
}

function validateCredentialsRef(
  ref: { apiVersion?: string; kind?: string; name?: string; namespace?: string },
  path: FieldPath,
): FieldError[] {
  const errors: FieldError[] = [];
  const supported = ['v1/Secret', 'security.gardener.cloud/v1alpha1/WorkloadIdentity'];
  if (!ref.name) errors.push(required(path.child('name'), 'must provide a name'));
  if (!ref.namespace) errors.push(required(path.child('namespace'), 'must provide a namespace'));
  if (!supported.includes(`${ref.apiVersion}/${ref.kind}`)) {
    errors.push(
      invalid(path, `${ref.apiVersion}/${ref.kind}`, `supported credentials references: ${supported.join(', ')}`),
    );
  }
  return errors;
}

function validateSeedNetworks(networks: Seed['spec']['networks'] | undefined): FieldError[] {
  const path = spec.child('networks');
  if (!networks) return [required(path)];
  const errors = validateIPFamilies(networks.ipFamilies, path.child('ipFamilies'));
  if (!networks.pods) errors.push(required(path.child('pods')));
  if (!networks.services) errors.push(required(path.child('services')));
  const seedNetworks: (Network | undefined)[] = [
    validateCIDR(networks.nodes, path.child('nodes'), errors),
    validateCIDR(networks.pods || undefined, path.child('pods'), errors),
    validateCIDR(networks.services || undefined, path.child('services'), errors),
  ];
  errors.push(...validateDisjoint(seedNetworks));
  // Shoot default networks must not collide with the seed's own.
  const defaults = [
    validateCIDR(networks.shootDefaults?.pods, path.child('shootDefaults', 'pods'), errors),
    validateCIDR(networks.shootDefaults?.services, path.child('shootDefaults', 'services'), errors),
  ];
  errors.push(
    ...validateDisjoint([...seedNetworks, ...defaults]).filter((e) => e.field.startsWith(`${path}.shootDefaults`)),
  );
  (networks.blockCIDRs ?? []).forEach((cidr, i) => validateCIDR(cidr, path.child('blockCIDRs').index(i), errors));
  return errors;
}

function validateSeedUpdate(seed: Seed, old: Seed): FieldError[] {
  const errors: FieldError[] = [];
  const check = (path: FieldPath, value: unknown, previous: unknown) => {
    if (previous !== undefined && JSON.stringify(value) !== JSON.stringify(previous))
      errors.push(immutable(path, value));
  };
  const n = seed.spec.networks;
  const o = old.spec.networks;
  check(spec.child('networks', 'pods'), n?.pods, o?.pods);
  check(spec.child('networks', 'services'), n?.services, o?.services);
  check(spec.child('networks', 'nodes'), n?.nodes, o?.nodes);
  check(spec.child('networks', 'ipFamilies'), n?.ipFamilies ?? ['IPv4'], o?.ipFamilies ?? ['IPv4']);
  if (old.spec.backup) {
    check(spec.child('backup', 'provider'), seed.spec.backup?.provider, old.spec.backup.provider);
    check(spec.child('backup', 'region'), seed.spec.backup?.region, old.spec.backup.region);
  }
  check(spec.child('ingress', 'domain'), seed.spec.ingress?.domain, old.spec.ingress?.domain);
  check(spec.child('provider', 'region'), seed.spec.provider.region, old.spec.provider.region);
  return errors;
}
