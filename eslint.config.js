import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', 'packages/contracts/src/gen/**', '.stack/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'error',
    },
  },
  { files: ['bench/**', 'deploy/**', 'scripts/**'], rules: { 'no-console': 'off' } },
  { files: ['**/test/**'], rules: { '@typescript-eslint/no-explicit-any': 'off' } },
  // The account pages' browser scripts (classic scripts, no bundler).
  {
    files: ['services/gateway/public/**/*.js'],
    languageOptions: { globals: { ...globals.browser }, sourceType: 'script' },
  },
);
