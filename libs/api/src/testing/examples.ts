// Gardener's example manifests under deploy/gardener/examples, parsed, with the file each came from (test helpers,
// exported as `@gardener-ts/api/testing`).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parseManifests, type KubeObject } from '../serialization/index.js';

export interface Example {
  file: string;
  object: KubeObject;
}

function yamlFiles(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) return yamlFiles(path);
      return name.endsWith('.yaml') ? [path] : [];
    });
}

/** The YAML files under `root` (Gardener's examples: deploy/gardener/examples), sorted, recursively. */
export function exampleFiles(root: string): string[] {
  return yamlFiles(root);
}

/** Every object of every YAML file under `root`, with the file (relative to `root`) it came from. */
export function loadExamples(root: string): Example[] {
  return exampleFiles(root).flatMap((path) => {
    const file = relative(root, path);
    return parseManifests(readFileSync(path, 'utf8'), file).map((object) => ({ file, object }));
  });
}

export const groupOf = (object: KubeObject) => (object.apiVersion.includes('/') ? object.apiVersion.split('/')[0] : '');
