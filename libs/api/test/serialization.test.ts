import { describe, expect, it } from 'vitest';
import {
  ManifestError,
  corev1beta1,
  decode,
  isKind,
  parseJSONManifest,
  parseManifests,
  stringifyManifests,
} from '../src/index.js';

describe('manifests', () => {
  const text = [
    '# leading comment',
    '---',
    'apiVersion: core.gardener.cloud/v1beta1',
    'kind: Project',
    'metadata: {name: dev}',
    '---',
    '---',
    'apiVersion: v1',
    'kind: Namespace',
    'metadata: {name: garden-dev}',
    '',
  ].join('\n');

  it('parses multi-document YAML, skipping empty documents', () => {
    const objects = parseManifests(text);
    expect(objects.map((o) => `${o.apiVersion}/${o.kind}/${o.metadata?.name}`)).toEqual([
      'core.gardener.cloud/v1beta1/Project/dev',
      'v1/Namespace/garden-dev',
    ]);
    expect(isKind(objects[0], corev1beta1.ProjectKind)).toBe(true);
    expect(isKind(objects[1], corev1beta1.ProjectKind)).toBe(false);
  });

  it('round-trips through YAML and JSON', () => {
    const objects = parseManifests(text);
    expect(parseManifests(stringifyManifests(objects))).toEqual(objects);
    expect(parseJSONManifest(JSON.stringify(objects[0]))).toEqual(objects[0]);
  });

  it('names file and document of bad input', () => {
    expect(() => parseManifests('kind: Shoot\n', 'shoot.yaml')).toThrow(
      new ManifestError('apiVersion is missing', 'shoot.yaml', 0),
    );
    expect(() => parseManifests('apiVersion: v1\nkind: A\n---\n- 1\n', 'list.yaml')).toThrow(
      'list.yaml (document 2): expected an object',
    );
    expect(() => parseManifests('a: [1\n', 'broken.yaml')).toThrow(/^broken\.yaml \(document 1\): /);
    expect(() => parseJSONManifest('{', 'x.json')).toThrow(/^x\.json: /);
  });

  it('decodes objects against the schema of their kind', () => {
    const [project] = parseManifests(text);
    expect(decode(project, corev1beta1.ProjectKind).metadata?.name).toBe('dev');
    expect(() => decode(project, corev1beta1.ShootKind)).toThrow(
      'expected core.gardener.cloud/v1beta1 Shoot, got core.gardener.cloud/v1beta1 Project',
    );
    const bad = { ...project, spec: { namespace: 42 } };
    expect(() => decode(bad, corev1beta1.ProjectKind)).toThrow(/spec\.namespace: Expected string/);
  });
});
