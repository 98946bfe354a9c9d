import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

export default tseslint.config(
  { ignores: ['node_modules', 'dist', 'dist-electron', 'dist-bench', 'release', 'test-output'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['renderer/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    // shared/ runs in both processes: no Node built-ins, no Electron, no DOM.
    files: ['shared/**/*.ts'],
    languageOptions: { globals: {} },
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: '^node:', message: 'shared/ must stay free of Node built-ins.' },
            {
              regex:
                '^(fs|path|os|dgram|net|crypto|events|child_process|http|https|url|util|buffer|stream|timers)(/.*)?$',
              message: 'shared/ must stay free of Node built-ins.',
            },
            { regex: '^electron(/.*)?$', message: 'shared/ must stay free of Electron.' },
            { regex: '^react(-dom)?(/.*)?$', message: 'shared/ must stay free of the DOM and React.' },
          ],
        },
      ],
      'no-restricted-globals': [
        'error',
        'window',
        'document',
        'navigator',
        'process',
        'Buffer',
        'require',
        '__dirname',
        'localStorage',
      ],
    },
  },
);
