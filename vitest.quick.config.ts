import { defineConfig } from "vitest/config"
import base from "./vite.config.ts"

// The quick loop runs on the embedded database alone, whatever the shell says.
delete process.env.TEST_DATABASE_URL

/**
 * `npm run test:quick` (docs/testing.md, "Which command proves what"): the edit-test loop
 * (about 100 s here; the aim is 90). The unit tests (the machines' pinned tables and generated paths
 * without the browser among them) and the API on PGlite, without the files that test the test
 * tools or start whole programs: those run in `npm test`.
 */
export default defineConfig({
  ...base,
  test: {
    ...base.test,
    include: ["tests/unit/**/*.test.ts", "tests/api/**/*.test.ts"],
    exclude: [
      ...(base.test?.exclude ?? []),
      // The linters and the OpenAPI linters checked on planted faults: `npm run lint` runs them on the code.
      "tests/unit/lint.test.ts",
      "tests/unit/layers.test.ts",
      "tests/api/openapi-lint.test.ts",
      // Generated requests: `npm run fuzz`, `npm test`. (The fault runs are out of `npm test` too.)
      "tests/api/fuzz.test.ts",
      // Whole server processes started and stopped.
      "tests/api/startup.test.ts",
      "tests/api/backup.test.ts"
    ]
  }
})
