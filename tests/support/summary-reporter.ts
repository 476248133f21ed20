import type { Reporter, TestModule } from "vitest/node"

/** Closes the run with the plain line CI reads: "tests: N passed, N failed". */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>) {
    let passed = 0
    let failed = 0
    for (const module of modules) {
      for (const test of module.children.allTests()) {
        const state = test.result().state
        if (state === "passed") passed++
        else if (state === "failed") failed++
      }
    }
    process.stdout.write(`\ntests: ${passed} passed, ${failed} failed\n`)
  }
}
