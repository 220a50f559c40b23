// @ts-check
import tseslint from 'typescript-eslint';

/**
 * typescript-eslint's type-aware recommended rules over the code and its tests (`npm run lint`, run by
 * CI). Findings not yet fixed are listed in eslint-suppressions.json (ESLint's bulk suppressions): a
 * new one fails the lint, and `npm run lint -- --prune-suppressions` drops those that were fixed.
 */
export default tseslint.config(
  {
    ignores: [
      'dist/**',
      '.bench-build/**',
      'node_modules/**',
      'coverage/**',
      'src/db/migrations/**',
      'src/kernel/schema-types.generated.ts',
      '**/*.cjs',
      '**/*.mjs',
    ],
  },
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // `_` names a value left out on purpose (a destructured field dropped, a parameter a signature needs).
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true }],
      // Loaders, lists and rows are declared by merging interfaces (`interface Loaders extends ReturnType<…> {}`).
      '@typescript-eslint/no-empty-object-type': ['error', { allowInterfaces: 'with-single-extends' }],
    },
  },
);
