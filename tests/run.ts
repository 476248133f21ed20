import { spawn } from "node:child_process"
import { PHASES_ENV, type Phase } from "./support/run-times.ts"

/**
 * `npm test` (docs/testing.md, "Which command proves what"): the type check, the linters and the
 * build side by side, each timed, then the whole vitest suite, which prints where the time went
 * with these phases in it (tests/support/summary-reporter.ts). Arguments go to vitest.
 */
const npx = process.platform === "win32" ? "npx.cmd" : "npx"

const run = (command: string, args: ReadonlyArray<string>, env: NodeJS.ProcessEnv = process.env) =>
  new Promise<number>((resolve) => {
    const child = spawn(command, args, { stdio: "inherit", env })
    child.on("exit", (code, signal) => resolve(code ?? (signal === null ? 1 : 128)))
  })

const timed = async (name: string, step: () => Promise<number>): Promise<Phase & { readonly code: number }> => {
  const started = performance.now()
  const code = await step()
  return { name, code, seconds: (performance.now() - started) / 1000 }
}

const started = performance.now()
const phases = await Promise.all([
  timed("typecheck", () => run(npx, ["tsc", "-p", "."])),
  timed("lint", () => run("npm", ["run", "--silent", "lint"])),
  timed("build", async () => {
    const code = await run(npx, ["vite", "build", "--logLevel", "warn"])
    return code === 0 ? run(process.execPath, ["tools/build-server.ts"]) : code
  })
])
const failed = phases.filter((phase) => phase.code !== 0)
if (failed.length > 0) {
  process.stderr.write(`\n${failed.map((phase) => phase.name).join(", ")} failed: no tests were run.\n`)
  process.exit(1)
}
const checked = [...phases.map(({ name, seconds }) => ({ name, seconds })), { name: "checks and build, wall", seconds: (performance.now() - started) / 1000 }]
const code = await run(npx, ["vitest", "run", ...process.argv.slice(2)], { ...process.env, [PHASES_ENV]: JSON.stringify(checked) })
process.stdout.write(`npm test, wall: ${((performance.now() - started) / 1000).toFixed(1)} s\n`)
process.exit(code)
