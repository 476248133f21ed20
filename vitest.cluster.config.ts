import { defineConfig } from "vitest/config"

/**
 * The cluster tests (`npm run test:cluster`, docs/deploy.md): two servers on one PostgreSQL
 * behind Debian's nginx, Chromium through the proxy. Apart from `npm test` because it needs
 * nginx and PostgreSQL and takes about a minute and a half; .ci/run runs both.
 */
export default defineConfig({
  test: {
    include: ["tests/cluster/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 180_000,
    expect: { poll: { timeout: 15_000, interval: 50 } },
    pool: "forks",
    maxWorkers: 1,
    reporters: ["default", "./tests/support/summary-reporter.ts"]
  }
})
