// Shared build settings. Libraries build to their own dist/ (ESM + types, dependencies external);
// apps bundle everything they use into dist/apps/<app>/main.js so an image needs only that bundle.
import { readFileSync } from 'node:fs';
import { defineConfig, type Options } from 'tsup';

const version = (JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string })
  .version;

const sourceCondition = (options: { conditions?: string[] }) => {
  options.conditions = ['@gardener-ts/source', 'node', 'import', 'default'];
};

export function libBuild(entry: Record<string, string> = { index: 'src/index.ts' }): Options {
  return {
    entry,
    format: ['esm'],
    target: 'node24',
    platform: 'node',
    dts: true,
    clean: true,
    sourcemap: true,
    outDir: 'dist',
    esbuildOptions: sourceCondition,
  };
}

/**
 * One self-contained ESM bundle per app. `external` packages stay out of the bundle and load from node_modules at
 * run time: for packages that read files next to their own code (etcd3 loads its .proto files via __dirname).
 */
export function appBuild(
  app: string,
  entry: Record<string, string> = { main: 'src/main.ts' },
  outDir?: string,
  external: string[] = [],
) {
  return defineConfig({
    entry,
    format: ['esm'],
    target: 'node24',
    platform: 'node',
    outDir: outDir ?? `../../dist/apps/${app}`,
    clean: true,
    sourcemap: true,
    splitting: false,
    noExternal: [external.length > 0 ? new RegExp(`^(?!(${external.join('|')})(/|$))`) : /.*/],
    external,
    // CommonJS dependencies inside an ESM bundle still call require().
    banner: {
      js: "import { createRequire as __gtsCreateRequire } from 'node:module'; const require = __gtsCreateRequire(import.meta.url);",
    },
    define: { 'process.env.GARDENER_TS_VERSION': JSON.stringify(version) },
    esbuildOptions: (options: { conditions?: string[]; alias?: Record<string, string> }) => {
      sourceCondition(options);
      // Node's built-in punycode is deprecated (DEP0040, a warning on every start since Node 22): dependencies that
      // still require it get the userland package of the same API (`punycode/` is the npm package, not the built-in).
      options.alias = { ...options.alias, punycode: 'punycode/' };
    },
  });
}
