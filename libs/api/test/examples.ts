// Gardener's example manifests under deploy/gardener/examples, parsed, with the file each came from.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { gardenerAsset } from '@gardener-ts/test-support';
import { parseManifests, type KubeObject } from '../src/serialization/index.js';

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

export function exampleFiles(): string[] {
  return yamlFiles(gardenerAsset('examples'));
}

export function loadExamples(): Example[] {
  const root = gardenerAsset('examples');
  return exampleFiles().flatMap((path) => {
    const file = relative(root, path);
    return parseManifests(readFileSync(path, 'utf8'), file).map((object) => ({ file, object }));
  });
}

export const groupOf = (object: KubeObject) => (object.apiVersion.includes('/') ? object.apiVersion.split('/')[0] : '');
