// ESLint (flat config): typescript-eslint's type-aware rules and the React hooks rules, over the
// whole project. `npm run lint:code` runs it; it joins `npm run lint` (and so `npm test`) once
// the code is clean under it (issue 33: 142 problems left when it was added: 37 exhaustive-deps,
// 23 type assertions it judges unneeded, some of them xstate's `{} as T` type slots that it
// misreads and its --fix breaks, 16 unsafe assignments, 12 rejections with non-Errors). The
// hooks rules are the classic two: the React Compiler's rules describe code for a compiler this
// project does not run.
import reactHooks from "eslint-plugin-react-hooks"
import tseslint from "typescript-eslint"

export default tseslint.config(
  { ignores: ["dist/", "build/", "node_modules/", "coverage/", "reports/", ".stryker-tmp/"] },
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: { parserOptions: { projectService: { allowDefaultProject: ["vitest.mutation.config.ts", "tests/bench/*.mjs"] }, tsconfigRootDir: import.meta.dirname } },
    rules: {
      // A leading underscore names what is left out on purpose (a destructured field dropped, a
      // parameter a signature requires).
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrorsIgnorePattern: "^_", destructuredArrayIgnorePattern: "^_" }]
    }
  },
  {
    files: ["src/**/*.{ts,tsx}"],
    plugins: { "react-hooks": reactHooks },
    rules: { "react-hooks/rules-of-hooks": "error", "react-hooks/exhaustive-deps": "error" }
  },
  {
    files: ["**/*.js", "**/*.cjs", "**/*.mjs"],
    ...tseslint.configs.disableTypeChecked
  }
)
