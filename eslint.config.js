// ESLint (flat config): typescript-eslint's type-checked recommended rules for every TypeScript file,
// and the React hook rules for the two front ends (the widget's hooks come from preact/compat).
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['**/node_modules/', '**/dist/', '**/.test-output/', 'data/', 'package-lock.json'] },
  js.configs.recommended,
  tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      // Each file is checked with the tsconfig that owns it (api/, admin/, shop-widget/ or the root).
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
  },
  {
    files: ['admin/src/**/*.{ts,tsx}', 'shop-widget/src/**/*.{ts,tsx}'],
    extends: [reactHooks.configs.flat.recommended],
  },
  {
    // Plain JavaScript (scripts/*.mjs, this file) belongs to no tsconfig: no type information.
    files: ['**/*.{js,mjs,cjs}'],
    extends: [tseslint.configs.disableTypeChecked],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly' } },
  },
);
