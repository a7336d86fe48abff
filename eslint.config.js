import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', '.run/**', '.tools/**', 'charts/**', 'load-tests/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': ['error', { allow: ['error', 'warn'] }],
    },
  },
  {
    // Plain JavaScript build and check scripts run on Node.
    files: ['**/*.mjs', '**/*.js'],
    languageOptions: { globals: globals.node },
  },
  {
    // Operator tools, scripts and runnable examples print to the terminal on purpose.
    files: ['scripts/**', '**/scripts/**', '**/test/**', 'examples/**'],
    rules: { 'no-console': 'off' },
  },
);
