import { describe, expect, it } from "vitest"
import { engineOf, phasesOf, tierTotals, timeReport, type FileTime } from "../support/run-times.ts"

const files: ReadonlyArray<FileTime> = [
  { file: "tests/unit/a.test.ts", seconds: 3, tests: [{ engine: "pglite", seconds: 2 }] },
  {
    file: "tests/api/b.test.ts",
    seconds: 40,
    tests: [
      { engine: "pglite", seconds: 10 },
      { engine: "postgresql", seconds: 30 }
    ]
  },
  { file: "tests/e2e/c.test.ts", seconds: 90, tests: [{ engine: "pglite", seconds: 80 }] },
  { file: "tests/e2e/d.test.ts", seconds: 12, tests: [] }
]

describe("where a run's time went", () => {
  it("names a test's engine from its suites' names", () => {
    expect(engineOf(["the stream, on postgresql", "file"])).toBe("postgresql")
    expect(engineOf(["the stream, on pglite"])).toBe("pglite")
    expect(engineOf([])).toBe("pglite")
    // A browser story naming none runs on the browser stories' engine.
    expect(engineOf(["scam reports in Chromium"], "postgresql")).toBe("postgresql")
    expect(engineOf(["the triage desk on pglite"], "postgresql")).toBe("pglite")
  })

  it("shares a file's time among its engines by its tests' times", () => {
    const tiers = tierTotals(files)
    expect(tiers.get("unit")).toBe(3)
    expect(tiers.get("API on PGlite")).toBe(10)
    expect(tiers.get("API on PostgreSQL")).toBe(30)
    expect(tiers.get("browser on PGlite")).toBe(102)
    expect(tiers.has("browser on PostgreSQL")).toBe(false)
  })

  it("reads the phases tests/run.ts passes, and nothing from a bad value", () => {
    expect(phasesOf('[{"name":"typecheck","seconds":41.5},{"name":7}]')).toEqual([{ name: "typecheck", seconds: 41.5 }])
    expect(phasesOf("not json")).toEqual([])
    expect(phasesOf(undefined)).toEqual([])
  })

  it("prints the phases, each tier, the wall time and the slowest files, slowest first", () => {
    const report = timeReport(files, [{ name: "typecheck", seconds: 41.5 }], 100, 2).split("\n")
    expect(report).toEqual([
      "time per tier (file time; two files run at once):",
      "   41.5 s  typecheck",
      "    3.0 s  unit",
      "   10.0 s  API on PGlite",
      "   30.0 s  API on PostgreSQL",
      "  102.0 s  browser on PGlite",
      "  100.0 s  vitest, wall",
      "the 2 slowest files:",
      "   90.0 s  tests/e2e/c.test.ts",
      "   40.0 s  tests/api/b.test.ts"
    ])
  })
})
