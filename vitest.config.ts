// Root test run: every project's tests in one run with one summary line.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      'apps/*/vitest.config.ts',
      'libs/*/vitest.config.ts',
      'tools/*/vitest.config.ts',
      'deploy/vitest.config.ts',
    ],
    poolOptions: { forks: { maxForks: 2, minForks: 1 } },
  },
});
