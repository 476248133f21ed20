/**
 * Where a run's time went (docs/testing.md, "Where the time goes"): the time of each tier (checks
 * and build, unit, API and browser on each engine) and the slowest files, from what vitest
 * measured of each file and test. Plain data in, lines out, so tests/unit/run-times.test.ts
 * checks it without a run.
 */

/** One test file as the run measured it: its time (tests and hooks) and each test's engine and time. */
export interface FileTime {
  readonly file: string
  readonly seconds: number
  readonly tests: ReadonlyArray<{ readonly engine: Engine; readonly seconds: number }>
}

/** A phase `npm test` ran before vitest (tests/run.ts), passed to the reporter in `TEST_PHASES`. */
export interface Phase {
  readonly name: string
  readonly seconds: number
}

export type Engine = "pglite" | "postgresql"

export const PHASES_ENV = "TEST_PHASES"

/**
 * A test's engine, from the names of its suites: `describe.each(engines)` names them "on
 * postgresql"; one that names none runs on `unnamed` (a browser story: the browser stories' engine,
 * tests/support/database.ts).
 */
export const engineOf = (names: ReadonlyArray<string>, unnamed: Engine = "pglite"): Engine =>
  names.some((name) => /\bpostgres(ql)?\b/i.test(name)) ? "postgresql" : names.some((name) => /\bpglite\b/i.test(name)) ? "pglite" : unnamed

const kindOf = (file: string): "unit" | "API" | "browser" | "other" =>
  file.includes("tests/unit/") ? "unit" : file.includes("tests/api/") ? "API" : file.includes("tests/e2e/") ? "browser" : "other"

/**
 * Each tier's total: a unit file's time is the unit tier's; an API or browser file's time is
 * shared among its engines in proportion to its tests' times there (its hooks, a server's start
 * say, go with the tests they serve).
 */
export const tierTotals = (files: ReadonlyArray<FileTime>): ReadonlyMap<string, number> => {
  const totals = new Map<string, number>()
  const add = (tier: string, seconds: number) => totals.set(tier, (totals.get(tier) ?? 0) + seconds)
  for (const file of files) {
    const kind = kindOf(file.file)
    if (kind === "unit" || kind === "other") {
      add(kind, file.seconds)
      continue
    }
    if (file.tests.length === 0) {
      add(`${kind} on PGlite`, file.seconds)
      continue
    }
    const tested = file.tests.reduce((sum, test) => sum + test.seconds, 0)
    for (const engine of ["pglite", "postgresql"] as const) {
      const own = file.tests.filter((test) => test.engine === engine)
      if (own.length === 0) continue
      const share = tested > 0 ? own.reduce((sum, test) => sum + test.seconds, 0) / tested : own.length / file.tests.length
      add(`${kind} on ${engine === "pglite" ? "PGlite" : "PostgreSQL"}`, file.seconds * share)
    }
  }
  return totals
}

/** The phases `npm test` ran before vitest, as it passed them; none when vitest ran by itself. */
export const phasesOf = (text: string | undefined): ReadonlyArray<Phase> => {
  if (text === undefined || text === "") return []
  try {
    const parsed: unknown = JSON.parse(text)
    return Array.isArray(parsed) ? parsed.filter((phase): phase is Phase => typeof phase?.name === "string" && typeof phase?.seconds === "number") : []
  } catch {
    return []
  }
}

const seconds = (value: number) => `${value.toFixed(1).padStart(7)} s`

/**
 * What a run prints after its summary line: the phases before vitest (run side by side, each
 * timed alone), each tier's total (files run two at a time, so the tiers add up to about twice
 * the wall time), vitest's wall time, and the `slowest` slowest files.
 */
export const timeReport = (files: ReadonlyArray<FileTime>, phases: ReadonlyArray<Phase>, wallSeconds: number, slowest = 15): string => {
  const tiers = tierTotals(files)
  const order = ["unit", "API on PGlite", "API on PostgreSQL", "browser on PGlite", "browser on PostgreSQL", "other"]
  const lines = [
    "time per tier (file time; two files run at once):",
    ...phases.map((phase) => `${seconds(phase.seconds)}  ${phase.name}`),
    ...order.filter((tier) => tiers.has(tier)).map((tier) => `${seconds(tiers.get(tier)!)}  ${tier}`),
    `${seconds(wallSeconds)}  vitest, wall`,
    `the ${Math.min(slowest, files.length)} slowest files:`,
    ...[...files]
      .sort((a, b) => b.seconds - a.seconds)
      .slice(0, slowest)
      .map((file) => `${seconds(file.seconds)}  ${file.file}`)
  ]
  return lines.join("\n")
}
