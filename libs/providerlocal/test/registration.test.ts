// The example ControllerRegistration (deploy/charts/provider-local/registration) declares exactly what provider-local
// serves plus the kinds every `local` seed needs that are not served yet: a kind gardenlet would wait for in vain
// beyond those, or one it would never hand over, fails here.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { workspaceRoot } from '@gardener-ts/testing';
import { ServedResources } from '../src/controller/add.js';

/**
 * Declared, not served yet: a seed of provider type `local` with DNS provider `local` needs them (Gardener's
 * ComputeRequiredExtensionsForSeed), so without them no extension is installed on the seed at all.
 */
const DeclaredNotServed = [
  { kind: 'ControlPlane', type: 'local' },
  { kind: 'DNSRecord', type: 'local' },
];

describe('the ControllerRegistration of provider-local', () => {
  it('declares the kinds and types the extension serves, and those the seed needs', () => {
    const registration = parse(
      readFileSync(`${workspaceRoot()}/deploy/charts/provider-local/registration/controllerregistration.yaml`, 'utf8'),
    );
    expect(registration.kind).toBe('ControllerRegistration');
    expect(registration.spec.deployment.policy).toBe('Always');
    const key = ({ kind, type }: { kind: string; type: string }) => `${kind}/${type}`;
    const declared = (registration.spec.resources as { kind: string; type: string }[]).map(key).sort();
    expect(declared).toEqual([...ServedResources, ...DeclaredNotServed].map(key).sort());
  });
});
