import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseManifests } from '@gardener-ts/api';
import { gardenerAsset } from '@gardener-ts/testing';
import { clusterObject } from '../testing.js';
import {
  decodeCluster,
  isFailed,
  isHibernated,
  isHibernationEnabled,
  isShootDeleted,
  isShootIgnored,
  isShootInMigration,
  parseBoolAnnotation,
  shootNeedsForceDeletion,
  type ClusterObject,
} from './cluster.js';

const example = (...path: string[]) =>
  parseManifests(readFileSync(gardenerAsset('examples', ...path), 'utf8'))[0] as Record<string, any>;
const NS = 'shoot--local--local';

function cluster(change: (shoot: Record<string, any>) => void = () => undefined) {
  const shoot = structuredClone(example('local', 'shoot.yaml'));
  change(shoot);
  return decodeCluster(
    clusterObject(NS, { shoot, seed: example('50-seed.yaml'), cloudProfile: example('local', 'cloudprofile.yaml') }),
  );
}

describe('decodeCluster', () => {
  it("decodes Gardener's example Shoot, Seed and CloudProfile", () => {
    const c = cluster();
    expect(c.name).toBe(NS);
    expect(c.shoot.spec.provider.type).toBe('local');
    expect(c.seed?.metadata?.name).toBeDefined();
    expect(c.cloudProfile.kind).toBe('CloudProfile');
  });

  it('accepts embedded objects sent as JSON or base64 strings (RawExtension bytes)', () => {
    const shoot = { metadata: { name: 'demo' }, spec: {} };
    const asJson = {
      apiVersion: 'extensions.gardener.cloud/v1alpha1',
      kind: 'Cluster',
      metadata: { name: NS },
      spec: { shoot: JSON.stringify(shoot), cloudProfile: {} },
    };
    expect(decodeCluster(asJson as unknown as ClusterObject).shoot.metadata?.name).toBe('demo');
    const asBase64 = {
      ...asJson,
      spec: { shoot: Buffer.from(JSON.stringify(shoot)).toString('base64'), cloudProfile: {} },
    };
    expect(decodeCluster(asBase64 as unknown as ClusterObject).shoot.metadata?.name).toBe('demo');
  });

  it('names the field that is not an object', () => {
    const bad = { metadata: { name: NS }, spec: { shoot: 42, cloudProfile: {} } };
    expect(() => decodeCluster(bad as unknown as ClusterObject)).toThrow(`Cluster ${NS}: spec.shoot is not an object`);
  });
});

describe('cluster predicates', () => {
  it('isFailed: a Failed last operation of the current generation', () => {
    const failed = (observed: number) =>
      cluster((s) => {
        s.metadata.generation = 2;
        s.status = { observedGeneration: observed, lastOperation: { type: 'Reconcile', state: 'Failed' } };
      });
    expect(isFailed(failed(2))).toBe(true);
    expect(isFailed(failed(1))).toBe(false);
    expect(isFailed(cluster())).toBe(false);
    expect(isFailed(undefined)).toBe(false);
  });

  it('hibernation: asked for in the spec, reached in the status', () => {
    const asked = cluster((s) => (s.spec.hibernation = { enabled: true }));
    expect(isHibernationEnabled(asked)).toBe(true);
    expect(isHibernated(asked)).toBe(false);
    expect(
      isHibernated(cluster((s) => ((s.spec.hibernation = { enabled: true }), (s.status = { isHibernated: true })))),
    ).toBe(true);
  });

  it('deleted: the mirrored Shoot carries a deletionTimestamp', () => {
    expect(isShootDeleted(cluster((s) => (s.metadata.deletionTimestamp = '2026-01-01T00:00:00Z')))).toBe(true);
    expect(isShootDeleted(cluster())).toBe(false);
    expect(isShootDeleted(undefined)).toBe(false);
  });

  it('migration: a Migrate in progress or a seed change', () => {
    expect(
      isShootInMigration(cluster((s) => (s.status = { lastOperation: { type: 'Migrate', state: 'Processing' } }))),
    ).toBe(true);
    expect(isShootInMigration(cluster((s) => ((s.spec.seedName = 'b'), (s.status = { seedName: 'a' }))))).toBe(true);
    expect(isShootInMigration(cluster((s) => ((s.spec.seedName = 'a'), (s.status = { seedName: 'a' }))))).toBe(false);
  });

  it('annotations parse as Go booleans', () => {
    const annotated = (key: string, value: string) => cluster((s) => (s.metadata.annotations = { [key]: value }));
    expect(shootNeedsForceDeletion(annotated('confirmation.gardener.cloud/force-deletion', 'True'))).toBe(true);
    expect(shootNeedsForceDeletion(annotated('confirmation.gardener.cloud/force-deletion', 'yes'))).toBe(false);
    expect(isShootIgnored(annotated('shoot.gardener.cloud/ignore', '1'))).toBe(true);
    expect(['1', 't', 'T', 'TRUE', 'true', 'True'].every(parseBoolAnnotation)).toBe(true);
    expect(['0', 'f', 'false', '', 'on'].some(parseBoolAnnotation)).toBe(false);
  });
});
