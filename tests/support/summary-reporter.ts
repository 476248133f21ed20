import type { SerializedError } from "vitest"
import { relative } from "node:path"
import type { Reporter, TestModule } from "vitest/node"
import { engineOf, type FileTime, PHASES_ENV, phasesOf, timeReport } from "./run-times.ts"

/**
 * What one run came to, counted so that nothing failing can read as a pass: a test file that
 * failed to load or whose `beforeAll` threw counts as a failed file even with no failed test,
 * and so does a suite whose hook failed, and an error thrown outside any test.
 */
export const summarize = (modules: ReadonlyArray<TestModule>, unhandled: ReadonlyArray<SerializedError>) => {
  let passed = 0
  let failed = 0
  let skipped = 0
  let failedFiles = 0
  let failedSuites = 0
  for (const module of modules) {
    for (const test of module.children.allTests()) {
      const state = test.result().state
      if (state === "passed") passed++
      else if (state === "failed") failed++
      else skipped++
    }
    // Errors of a suite or file are its own (a hook that threw, a file that did not load), not its tests'.
    for (const suite of module.children.allSuites()) if (suite.errors().length > 0) failedSuites++
    if (module.errors().length > 0) failedFiles++
  }
  return { passed, failed, skipped, failedFiles, failedSuites, unhandled: unhandled.length }
}

/** The line CI reads: "tests: N passed, N failed", then what else failed, and what did not run. */
export const summaryLine = (summary: ReturnType<typeof summarize>, postgres: boolean): string =>
  [
    `tests: ${summary.passed} passed, ${summary.failed} failed`,
    ...(summary.skipped > 0 ? [`${summary.skipped} skipped`] : []),
    ...(summary.failedFiles > 0 ? [`${summary.failedFiles} test files failed`] : []),
    ...(summary.failedSuites > 0 ? [`${summary.failedSuites} suites failed in a hook`] : []),
    ...(summary.unhandled > 0 ? [`${summary.unhandled} errors outside tests`] : [])
  ].join(", ") + (postgres ? "" : "\nPostgreSQL runs were skipped: TEST_DATABASE_URL is not set, so the database tests ran on PGlite only.")

/** A file's time as vitest measured it, and each test's engine (its suites' names) and time. */
const fileTime = (module: TestModule): FileTime => ({
  file: relative(process.cwd(), module.moduleId),
  seconds: module.diagnostic().duration / 1000,
  tests: [...module.children.allTests()].map((test) => {
    const names: Array<string> = []
    for (let parent = test.parent; parent.type === "suite"; parent = parent.parent) names.push(parent.name)
    // A browser story that names no engine runs on the browser stories' one: PostgreSQL where the run has it.
    const unnamed = module.moduleId.includes("tests/e2e/") && process.env.TEST_DATABASE_URL !== undefined ? "postgresql" : "pglite"
    return { engine: engineOf(names, unnamed), seconds: (test.diagnostic()?.duration ?? 0) / 1000 }
  })
})

export default class SummaryReporter implements Reporter {
  private started = performance.now()

  onTestRunStart() {
    this.started = performance.now()
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>, unhandled: ReadonlyArray<SerializedError>) {
    const wall = (performance.now() - this.started) / 1000
    const times = timeReport(modules.map(fileTime), phasesOf(process.env[PHASES_ENV]), wall)
    process.stdout.write(`\n${times}\n\n${summaryLine(summarize(modules, unhandled), process.env.TEST_DATABASE_URL !== undefined)}\n`)
  }
}
