import { spawn } from "node:child_process"
import { parseArgs } from "node:util"
import { makeDatabaseImages } from "./support/database-images.ts"

/**
 * `npm run test:repeat -- FILE... [--times N] [--busy]` (docs/testing.md, "No test fails by
 * chance"): runs the files N times (20 unless told), each time a new vitest run, and stops at the
 * first failure, saying which run it was. `--busy` keeps one core busy the whole time, as a
 * loaded CI machine does. The database images the suite's set-up makes are made once for all runs.
 */
const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { times: { type: "string", default: "20" }, busy: { type: "boolean", default: false } }
})
const times = Number(values.times)
if (positionals.length === 0 || !Number.isInteger(times) || times < 1) {
  process.stderr.write("Usage: npm run test:repeat -- FILE... [--times N] [--busy]\n")
  process.exit(2)
}

const images = await makeDatabaseImages()

const busy = values.busy ? spawn(process.execPath, ["-e", "for (;;) {}"], { stdio: "ignore" }) : undefined
const npx = process.platform === "win32" ? "npx.cmd" : "npx"
const once = () =>
  new Promise<number>((resolve) => {
    const child = spawn(npx, ["vitest", "run", ...positionals], { stdio: ["ignore", "pipe", "inherit"], env: { ...process.env, ...images.env } })
    let output = ""
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()))
    child.on("exit", (code) => {
      if (code !== 0) process.stdout.write(output)
      resolve(code ?? 1)
    })
  })

let failedAt: number | undefined
for (let run = 1; run <= times && failedAt === undefined; run++) {
  const started = performance.now()
  const code = await once()
  const seconds = ((performance.now() - started) / 1000).toFixed(1)
  process.stdout.write(`run ${run}/${times}: ${code === 0 ? "passed" : "FAILED"} in ${seconds} s${values.busy ? " (one core kept busy)" : ""}\n`)
  if (code !== 0) failedAt = run
}
busy?.kill()
await images.remove()
process.stdout.write(failedAt === undefined ? `${positionals.join(" ")}: ${times} of ${times} runs passed\n` : `failed on run ${failedAt} of ${times}\n`)
process.exit(failedAt === undefined ? 0 : 1)
