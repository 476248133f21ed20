import { defineConfig } from "vitest/config"

/**
 * The fast tests StrykerJS runs against each mutant (`npm run mutation`, docs/testing.md,
 * "Mutation testing"): the unit tests of the machines and the pure rules, nothing that starts a
 * server, a database or a browser.
 */
export default defineConfig({
  test: {
    include: ["tests/unit/**/*.test.ts"],
    exclude: ["tests/unit/data-lock.test.ts"],
    testTimeout: 60_000,
    pool: "forks"
  }
})
