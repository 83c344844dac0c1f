// Shared build settings. Libraries build to their own dist/ (ESM + types, dependencies external);
// apps bundle everything they use into dist/apps/<app>/main.js so an image needs only that bundle.
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { defineConfig, type Options } from 'tsup';

type EsbuildPlugin = NonNullable<Options['esbuildPlugins']>[number];

/**
 * The mark of a resolution a plugin below asks esbuild for itself: every plugin passes it by, so no two plugins ask
 * each other back and forth.
 */
const NESTED = 'gardener-ts-nested-resolve';

/**
 * @kubernetes/client-node declares no `sideEffects`, so esbuild keeps every module its index re-exports: the generated
 * API classes and the ObjectSerializer with all models, about 4 MB of source evaluated at start (some 40 MiB of heap
 * in every process). Its modules only define classes and functions; marked side-effect free, a bundle keeps only
 * what it uses (a component that needs just `KubeConfig` drops the generated APIs).
 */
const clientNodeSideEffectFree: EsbuildPlugin = {
  name: 'client-node-side-effect-free',
  setup(build) {
    build.onResolve({ filter: /.*/ }, async (args) => {
      if (args.pluginData === NESTED) return undefined;
      if (!args.path.includes('@kubernetes/client-node') && !args.importer.includes('/@kubernetes/client-node/')) {
        return undefined;
      }
      const { path, errors, external } = await build.resolve(args.path, {
        kind: args.kind,
        importer: args.importer,
        resolveDir: args.resolveDir,
        pluginData: NESTED,
      });
      if (errors.length > 0 || external || !path.includes('/@kubernetes/client-node/')) return undefined;
      return { path, sideEffects: false };
    });
  },
};

/**
 * One copy of each package version per bundle. The root `node_modules` holds `yaml` 1 (a dependency's), so npm gives
 * every library its own copy of `yaml` 2.9.1, and `@peculiar/x509` likewise: the gardenlet bundled `yaml` four times
 * (260 KB of source each, evaluated in every process). A package resolved from a second folder with the name and
 * version of one seen before is taken from the first. Only for these two: every package would also redirect CommonJS
 * ones such as `tslib`, whose default import esbuild then no longer finds.
 */
const DEDUPED = /^(yaml|@peculiar\/x509)(\/|$)/;
const dedupePackages: EsbuildPlugin = {
  name: 'dedupe-packages',
  setup(build) {
    const firstRoot = new Map<string, string>();
    const versions = new Map<string, string | undefined>();
    const versionOf = (root: string) => {
      if (!versions.has(root)) {
        try {
          versions.set(
            root,
            (JSON.parse(readFileSync(`${root}/package.json`, 'utf8')) as { version?: string }).version,
          );
        } catch {
          versions.set(root, undefined);
        }
      }
      return versions.get(root);
    };
    build.onResolve({ filter: DEDUPED }, async (args) => {
      if (args.pluginData === NESTED) return undefined;
      const resolved = await build.resolve(args.path, {
        kind: args.kind,
        importer: args.importer,
        resolveDir: args.resolveDir,
        pluginData: NESTED,
      });
      if (resolved.errors.length > 0 || resolved.external) return undefined;
      const match = /^(.*[\\/]node_modules[\\/](?:@[^\\/]+[\\/])?[^\\/]+)([\\/].*)$/.exec(resolved.path);
      if (!match) return undefined;
      const [, root, rest] = match as unknown as [string, string, string];
      const version = versionOf(root);
      if (!version) return undefined;
      const key = `${root.replace(/^.*[\\/]node_modules[\\/]/, '')}@${version}`;
      const first = firstRoot.get(key) ?? (firstRoot.set(key, root), root);
      return { path: first + rest, sideEffects: resolved.sideEffects };
    });
  },
};

/**
 * tsyringe (which `@peculiar/x509` uses) throws at load unless `reflect-metadata` ran before it. esbuild runs a
 * CommonJS module where the module that imports it runs, after that module's ES imports: an `import 'reflect-metadata'`
 * at the top of one of our files therefore does not order it before an x509 that another module pulls in. Every import
 * of `tsyringe` loads this CommonJS wrapper instead, which requires `reflect-metadata` and then tsyringe's own
 * CommonJS build: the order holds wherever x509 is evaluated, however the bundler trims and orders modules.
 */
const TSYRINGE_WRAPPER = 'gardener-ts-tsyringe-after-reflect';
const tsyringeAfterReflect: EsbuildPlugin = {
  name: 'tsyringe-after-reflect',
  setup(build) {
    build.onResolve({ filter: /^tsyringe$/ }, async (args) => {
      if (args.pluginData === NESTED) return undefined;
      const resolved = await build.resolve('tsyringe', {
        kind: 'require-call',
        importer: args.importer,
        resolveDir: args.resolveDir,
        pluginData: NESTED,
      });
      if (resolved.errors.length > 0 || resolved.external) return undefined;
      return { path: resolved.path, namespace: TSYRINGE_WRAPPER };
    });
    build.onLoad({ filter: /.*/, namespace: TSYRINGE_WRAPPER }, (args) => ({
      contents: `require('reflect-metadata');\nmodule.exports = require(${JSON.stringify(args.path)});\n`,
      loader: 'js',
      resolveDir: dirname(args.path),
    }));
  },
};

/**
 * esbuild writes ASCII, but leaves regular expression literals as they are: one `µ` in a dependency's pattern
 * (cel-js' duration parser) made V8 hold every bundle that contains it as UTF-16, twice its size, in every process
 * (resource-manager: 3.4 MB of source, 6.9 MB in memory). Dependencies' non-ASCII characters are escaped as `\uXXXX`
 * before esbuild reads them: the same characters in strings, regular expressions, identifiers and comments
 * (`String.raw` of a template literal would see the escape, which no bundled dependency does).
 */
const asciiDependencies: EsbuildPlugin = {
  name: 'ascii-dependencies',
  setup(build) {
    build.onLoad({ filter: /[\\/]node_modules[\\/].*\.[cm]?js$/ }, async (args) => {
      const source = await readFile(args.path, 'utf8');
      if (!/[^\x00-\x7f]/.test(source)) return undefined;
      const contents = source.replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
      return { contents, loader: 'js', resolveDir: dirname(args.path) };
    });
  },
};

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
    // Whitespace and syntax minified, names kept (stack traces still name functions; the source maps have the rest):
    // comments go, and with them the non-ASCII characters that would make V8 hold a whole bundle as UTF-16, twice
    // its size, in every process.
    minifyWhitespace: true,
    minifySyntax: true,
    splitting: false,
    noExternal: [external.length > 0 ? new RegExp(`^(?!(${external.join('|')})(/|$))`) : /.*/],
    external,
    // CommonJS dependencies inside an ESM bundle still call require().
    banner: {
      js: "import { createRequire as __gtsCreateRequire } from 'node:module'; const require = __gtsCreateRequire(import.meta.url);",
    },
    define: { 'process.env.GARDENER_TS_VERSION': JSON.stringify(version) },
    esbuildPlugins: [clientNodeSideEffectFree, dedupePackages, tsyringeAfterReflect, asciiDependencies],
    esbuildOptions: (options: { conditions?: string[]; alias?: Record<string, string> }) => {
      sourceCondition(options);
      // Node's built-in punycode is deprecated (DEP0040, a warning on every start since Node 22): dependencies that
      // still require it get the userland package of the same API (`punycode/` is the npm package, not the built-in).
      options.alias = { ...options.alias, punycode: 'punycode/' };
    },
  });
}
