import { defineConfig } from "vitest/config"
import base, { FAULT_FILES } from "./vite.config.ts"

/**
 * The fault runs (`npm run test:faults`; docs/testing.md, "Which command proves what"): the
 * product's server killed while writes are acknowledged, a server stopped dead holding a row
 * lock, a full disk under each engine. Apart from `npm test` as the fuzz and the benchmarks are;
 * .ci/run runs them after it.
 */
export default defineConfig({
  ...base,
  test: { ...base.test, include: FAULT_FILES, exclude: [] }
})
