// Flat config: Next's rules (core web vitals, which include React and the React hooks rules),
// typescript-eslint's recommended type-checked rules, and Prettier owning the layout.
import nextCoreWebVitals from 'eslint-config-next/core-web-vitals';
import nextTypescript from 'eslint-config-next/typescript';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      'node_modules/',
      '.next/',
      '.data/',
      '.runtime/',
      '.bench/',
      'test-results/',
      'playwright-report/',
      'e2e/.runs/',
      'next-env.d.ts',
      'public/vendor/',
      '.tmp/',
    ],
  },
  ...nextCoreWebVitals,
  ...nextTypescript,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        // Config files at the top level are not part of tsconfig's program; lint them on their own.
        projectService: { allowDefaultProject: ['*.mts', '*.mjs'] },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      // `_name` marks a value taken apart on purpose (e.g. dropping a key from an object).
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
      ],
      // React event props accept async handlers; React ignores the returned promise by design.
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
      // Console links prefetch on intent, not on sight: components/ui/link.tsx says why.
      'no-restricted-imports': [
        'error',
        { paths: [{ name: 'next/link', message: "Use Link from '@/components/ui/link' (prefetch on intent)." }] },
      ],
    },
  },
  {
    files: ['components/ui/link.tsx'],
    rules: { 'no-restricted-imports': 'off' },
  },
  {
    // Specs read answers with Playwright's `response.json()` and vitest's matchers, typed `any` on
    // purpose: the assertions themselves check the shape. Production code keeps these rules.
    files: ['e2e/**/*.ts', '**/*.test.ts', 'lib/**/testing/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/unbound-method': 'off',
      // Fakes implement async interfaces without awaiting anything.
      '@typescript-eslint/require-await': 'off',
    },
  },
  {
    // Plain scripts run by node directly, outside the TypeScript project.
    files: ['**/*.mjs', '**/*.cjs', '**/*.js'],
    ...tseslint.configs.disableTypeChecked,
  },
);
