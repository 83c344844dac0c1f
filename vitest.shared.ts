// Shared vitest settings: workspace libs resolve to their TypeScript sources, so tests never need a prior build.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const libs = fileURLToPath(new URL('./libs/', import.meta.url));

/**
 * A project's vitest settings. `isolate: false` runs the project's test files one after another in a worker's module
 * graph instead of a fresh one per file: its files import the same large libs, and importing them again per file cost
 * more than the tests themselves. Only for projects whose files keep no state between them (each passes alone and in
 * one worker).
 */
export function projectConfig(name: string, overrides: { timeoutMs?: number; isolate?: boolean } = {}) {
  return defineConfig({
    resolve: {
      alias: [
        { find: /^@gardener-ts\/([a-z0-9-]+)$/, replacement: `${libs}$1/src/index.ts` },
        // Test helpers behind a lib's `./testing` export: src/testing.ts or src/testing/index.ts.
        { find: /^@gardener-ts\/([a-z0-9-]+)\/testing$/, replacement: `${libs}$1/src/testing` },
      ],
    },
    test: {
      name,
      // Shared helpers (test-support's describeComponentBinary) use the globals instead of importing vitest.
      globals: true,
      include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
      testTimeout: overrides.timeoutMs ?? 30_000,
      hookTimeout: overrides.timeoutMs ?? 30_000,
      pool: 'forks',
      isolate: overrides.isolate ?? true,
    },
  });
}
