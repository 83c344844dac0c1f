// Guard: the tests run on the Node.js the project requires (package.json `engines`, Node 24 LTS), both in the test
// process and for the `node` that tests and tools start from PATH. Fails when `npm test` ran on an older Node
// (tools/scripts/ci.sh puts bootstrap's .tools/node first on PATH when the machine's Node is older).
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { workspaceRoot } from './workspace.js';

/** The minimum version of a `>=X.Y.Z` engines range, as [major, minor, patch]. */
function minimumOf(range: string): number[] {
  const match = /^>=\s*(\d+)(?:\.(\d+))?(?:\.(\d+))?$/.exec(range.trim());
  if (!match) throw new Error(`engines.node ${JSON.stringify(range)} is not of the form >=X.Y.Z`);
  return [Number(match[1]), Number(match[2] ?? 0), Number(match[3] ?? 0)];
}

function atLeast(version: string, minimum: number[]): boolean {
  const parts = version.replace(/^v/, '').split('.').map(Number);
  for (let i = 0; i < 3; i++) {
    if ((parts[i] ?? 0) !== minimum[i]) return (parts[i] ?? 0) > minimum[i];
  }
  return true;
}

const engines = (
  JSON.parse(readFileSync(join(workspaceRoot(), 'package.json'), 'utf8')) as { engines: { node: string } }
).engines.node;

describe('runtime', () => {
  it('requires Node 24 or newer in package.json', () => {
    expect(minimumOf(engines)[0]).toBeGreaterThanOrEqual(24);
  });

  it('runs the tests on the Node of package.json engines', () => {
    expect(atLeast(process.version, minimumOf(engines)), `tests run on node ${process.version}, need ${engines}`).toBe(
      true,
    );
  });

  it('starts the same Node for `node` on PATH', () => {
    const version = execFileSync('node', ['--version'], { encoding: 'utf8' }).trim();
    expect(atLeast(version, minimumOf(engines)), `node on PATH is ${version}, need ${engines}`).toBe(true);
  });

  it('declares the same Node in every workspace and builds every image on Node 24 with npm ci', () => {
    const root = workspaceRoot();
    const workspaces = ['apps', 'libs', 'tools'].flatMap((dir) =>
      readdirSync(join(root, dir)).map((name) => join(dir, name)),
    );
    for (const dir of [...workspaces, 'deploy']) {
      let pkg: { engines?: { node?: string } };
      try {
        pkg = JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8')) as typeof pkg;
      } catch {
        continue; // not a package (tools/scripts)
      }
      expect(pkg.engines?.node, `${dir}/package.json engines.node`).toBe(engines);
    }
    for (const app of readdirSync(join(root, 'apps'))) {
      const dockerfile = readFileSync(join(root, 'apps', app, 'Dockerfile'), 'utf8');
      expect(dockerfile, app).toMatch(/^ARG NODE_IMAGE=node:24-slim(@sha256:[0-9a-f]{64})?$/m);
      expect(dockerfile.match(/^FROM \$\{NODE_IMAGE\}/gm), app).toHaveLength(2);
      expect(dockerfile, app).toMatch(/RUN npm ci /);
    }
  });
});
