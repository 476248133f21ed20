// ESLint (flat config): typescript-eslint's type-aware rules and the React hooks rules, over the
// whole project; `npm run lint` (and so `npm test`) runs it, tests/unit/lint.test.ts shows it
// refuses a planted violation. The hooks rules are the classic two: the React Compiler's rules
// describe code for a compiler this project does not run. Layout is Prettier's (.prettierrc.json),
// so no layout rules here.
import reactHooks from "eslint-plugin-react-hooks"
import tseslint from "typescript-eslint"

const sqlMessage = "SQL belongs in the area's repository.ts, not in a handler or any other file of the area."
/** The SQL client in any form: a template (sql`…`, sql<Row>`…`), a call (sql("table")), a helper (sql.in, sql.unsafe, sql.withoutTransforms()`…`). */
const sqlRules = [
  { selector: "TaggedTemplateExpression[tag.name='sql']", message: sqlMessage },
  { selector: "CallExpression[callee.name='sql']", message: sqlMessage },
  { selector: "MemberExpression[object.name='sql']", message: sqlMessage }
]
const defectMessage = "A database failure becomes a defect in server/platform/database.ts (`dieOnSqlError`), where the repository ends its reads."
const defectRules = [
  { selector: "CallExpression[callee.property.name='catchTag'][arguments.0.value='SqlError']", message: defectMessage },
  { selector: "CallExpression[callee.property.name='catchTags'] Property[key.name='SqlError']", message: defectMessage }
]
const orDieRule = {
  selector: "MemberExpression[object.name='Effect'][property.name='orDie']",
  message: "A handler maps its refusals; its repository already answers database failures as defects (`dieOnSqlError`)."
}
const sqlErrorImport = { name: "effect/sql/SqlError", message: "A repository answers database failures as defects: an area never names SqlError." }

export default tseslint.config(
  { ignores: ["dist/", "build/", "node_modules/", "coverage/", "reports/", ".stryker-tmp/"] },
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        projectService: {
          allowDefaultProject: [
            "vitest.mutation.config.ts",
            "vitest.cluster.config.ts",
            "vitest.quick.config.ts",
            "vitest.faults.config.ts",
            "tests/bench/*.mjs"
          ]
        },
        tsconfigRootDir: import.meta.dirname
      }
    },
    rules: {
      // A leading underscore names what is left out on purpose (a destructured field dropped, a
      // parameter a signature requires).
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrorsIgnorePattern: "^_", destructuredArrayIgnorePattern: "^_" }
      ],
      // A failed call is data, not an Error: the console's API layer rejects with a CallFailure
      // (contract/call-failure.ts), which the machines keep in their context and compare.
      "@typescript-eslint/only-throw-error": ["error", { allow: [{ from: "file", name: "CallFailure", path: "contract/call-failure.ts" }] }],
      "@typescript-eslint/prefer-promise-reject-errors": ["error", { allow: [{ from: "file", name: "CallFailure", path: "contract/call-failure.ts" }] }]
    }
  },
  {
    files: ["src/**/*.{ts,tsx}"],
    plugins: { "react-hooks": reactHooks },
    rules: { "react-hooks/rules-of-hooks": "error", "react-hooks/exhaustive-deps": "error" }
  },
  {
    // Database failures become defects in one place (server/platform/database.ts, `dieOnSqlError`),
    // and the write path maps the unique keys an area names (record-writes.ts): nowhere else.
    files: ["server/**/*.ts"],
    ignores: ["server/platform/database.ts", "server/platform/record-writes.ts"],
    rules: { "no-restricted-syntax": ["error", ...defectRules] }
  },
  {
    // An area (server/<area>/) keeps its SQL in its repository.ts, which ends its reads and writes
    // in `dieOnSqlError`: nothing else in an area runs SQL, names SqlError or makes failures into
    // defects by hand; a handler maps only its area's refusals (docs/architecture.md, "Areas").
    files: ["server/*/*.ts"],
    ignores: ["server/platform/**"],
    rules: {
      "no-restricted-syntax": ["error", ...defectRules, orDieRule],
      "no-restricted-imports": ["error", { paths: [sqlErrorImport] }]
    }
  },
  {
    files: ["server/*/*.ts"],
    ignores: ["server/platform/**", "server/*/repository.ts", "server/*/*-repository.ts"],
    rules: {
      "no-restricted-syntax": ["error", ...defectRules, orDieRule, ...sqlRules],
      "no-restricted-imports": ["error", { paths: [{ name: "effect/sql/SqlClient", allowTypeImports: true, message: sqlMessage }, sqlErrorImport] }]
    }
  },
  {
    // The environment is read once, at start, into the validated configuration
    // (server/platform/config.ts, README "Configuration"): a switch read anywhere else is one no
    // one validates or documents. Benches pass their own configuration instead.
    files: ["contract/**", "machines/**", "server/**", "src/**", "tools/**", "vite.config.ts"],
    ignores: ["server/main.ts", "server/cli/run.ts"],
    rules: {
      "no-restricted-properties": [
        "error",
        { object: "process", property: "env", message: "Read the environment in server/platform/config.ts (readConfig), not here." }
      ]
    }
  },
  {
    // A machine's `types: {} as { context: …; events: … }` is XState's type-only slot: the
    // assertion is what names the types (the rule sees `{}` fit the optional slots and calls it
    // unnecessary), and as one empty object it leaves Stryker no mutant to skip.
    files: ["machines/*.ts"],
    rules: { "@typescript-eslint/no-unnecessary-type-assertion": "off" }
  },
  {
    // Tests read answers as JSON and match them with vitest's asymmetric matchers (typed `any`),
    // and their stand-in API calls reject with failure-shaped data as the console's API layer does.
    files: ["tests/**"],
    rules: {
      "@typescript-eslint/no-unsafe-assignment": "off",
      "@typescript-eslint/no-unsafe-member-access": "off",
      "@typescript-eslint/no-unsafe-call": "off",
      "@typescript-eslint/no-unsafe-return": "off",
      "@typescript-eslint/no-unsafe-argument": "off",
      "@typescript-eslint/prefer-promise-reject-errors": "off"
    }
  },
  {
    files: ["**/*.js", "**/*.cjs", "**/*.mjs"],
    ...tseslint.configs.disableTypeChecked
  }
)
