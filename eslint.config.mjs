// Lint rules for every project. The module-boundary rule enforces the layering of ARCHITECTURE.md:
// apps import libs; libs never import apps; product code never imports the local-mode substrate.
import js from '@eslint/js';
import nx from '@nx/eslint-plugin';
import tseslint from 'typescript-eslint';

const productConstraints = [
  { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['type:lib'] },
  { sourceTag: 'type:lib', onlyDependOnLibsWithTags: ['type:lib'] },
  { sourceTag: 'type:substrate', onlyDependOnLibsWithTags: ['type:lib', 'type:substrate'] },
  { sourceTag: 'type:testing', onlyDependOnLibsWithTags: ['type:lib', 'type:substrate', 'type:testing'] },
  { sourceTag: 'type:tool', onlyDependOnLibsWithTags: ['type:lib', 'type:substrate', 'type:testing'] },
];
// Tests of any project may start the local substrate and use the test harness.
const testConstraints = productConstraints.map((c) => ({
  ...c,
  onlyDependOnLibsWithTags: [...new Set([...c.onlyDependOnLibsWithTags, 'type:substrate', 'type:testing'])],
}));

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', '**/.nx/**', '**/vendor/**', 'deploy/charts/**', '**/*.cjs'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts', '**/*.mjs', '**/*.js'],
    plugins: { '@nx': nx },
    languageOptions: { globals: { process: 'readonly', console: 'readonly', Buffer: 'readonly', URL: 'readonly' } },
    rules: {
      '@nx/enforce-module-boundaries': [
        'error',
        { allow: [], depConstraints: productConstraints, enforceBuildableLibDependency: false },
      ],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },
  {
    // Build and test configuration shares the workspace's presets by relative import.
    files: ['**/vitest.config.ts', '**/tsup.config.ts'],
    rules: { '@nx/enforce-module-boundaries': 'off' },
  },
  {
    files: ['**/*.test.ts', '**/test/**/*.ts', 'bench/**/*.ts'],
    rules: {
      '@nx/enforce-module-boundaries': [
        'error',
        { allow: [], depConstraints: testConstraints, enforceBuildableLibDependency: false },
      ],
    },
  },
);
