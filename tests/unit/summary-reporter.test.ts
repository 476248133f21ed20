import { spawnSync } from "node:child_process"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { root } from "../support/process.ts"

describe("the summary line", () => {
  it("counts a suite whose beforeAll threw as a failure, and says when PostgreSQL was skipped", () => {
    const env = { ...process.env }
    delete env.TEST_DATABASE_URL
    const run = spawnSync(process.execPath, [join(root, "node_modules/vitest/vitest.mjs"), "run", "--config", "tests/fixtures/reporter/vitest.config.ts"], {
      cwd: root,
      env,
      encoding: "utf8"
    })
    expect(run.status).toBe(1)
    const line = run.stdout.split("\n").find((text) => text.startsWith("tests: "))
    expect(line).toBe("tests: 1 passed, 0 failed, 2 skipped, 1 test files failed, 1 suites failed in a hook")
    expect(run.stdout).toContain("PostgreSQL runs were skipped: TEST_DATABASE_URL is not set")
  }, 60_000)
})
