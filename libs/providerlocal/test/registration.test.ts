// The example ControllerRegistration (deploy/charts/provider-local/registration) declares exactly what provider-local
// serves: a kind gardenlet would wait for in vain, or one it would never hand over, fails here.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { workspaceRoot } from '@gardener-ts/testing';
import { ServedResources } from '../src/controller/add.js';

describe('the ControllerRegistration of provider-local', () => {
  it('declares the kinds and types the extension serves, among them those every local seed needs', () => {
    const registration = parse(
      readFileSync(`${workspaceRoot()}/deploy/charts/provider-local/registration/controllerregistration.yaml`, 'utf8'),
    );
    expect(registration.kind).toBe('ControllerRegistration');
    expect(registration.spec.deployment.policy).toBe('Always');
    const key = ({ kind, type }: { kind: string; type: string }) => `${kind}/${type}`;
    const declared = (registration.spec.resources as { kind: string; type: string }[]).map(key).sort();
    expect(declared).toEqual(ServedResources.map(key).sort());
    // A seed of provider type `local` with DNS provider `local` needs these (Gardener's
    // ComputeRequiredExtensionsForSeed): without them no extension is installed on the seed at all.
    expect(declared).toEqual(expect.arrayContaining(['ControlPlane/local', 'DNSRecord/local']));
  });

  it("declares the test Extension types with Gardener's lifecycles", () => {
    const registration = parse(
      readFileSync(`${workspaceRoot()}/deploy/charts/provider-local/registration/controllerregistration.yaml`, 'utf8'),
    );
    const lifecycle = (type: string) =>
      (registration.spec.resources as { kind: string; type: string; lifecycle?: unknown }[]).find(
        (r) => r.kind === 'Extension' && r.type === type,
      )?.lifecycle;
    expect(lifecycle('local-ext-seed')).toEqual({
      reconcile: 'BeforeKubeAPIServer',
      delete: 'AfterKubeAPIServer',
      migrate: 'AfterKubeAPIServer',
    });
    expect(lifecycle('local-ext-shoot')).toEqual({
      reconcile: 'AfterKubeAPIServer',
      delete: 'BeforeKubeAPIServer',
      migrate: 'BeforeKubeAPIServer',
    });
    expect(lifecycle('local-ext-shoot-after-worker')).toEqual({
      reconcile: 'AfterWorker',
      delete: 'BeforeKubeAPIServer',
      migrate: 'BeforeKubeAPIServer',
    });
  });
});
