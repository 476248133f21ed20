import { type ChildProcess, spawn } from "node:child_process"
import { fileURLToPath } from "node:url"

export const root = fileURLToPath(new URL("../..", import.meta.url))

export interface Running {
  readonly child: ChildProcess
  readonly output: () => string
  readonly errors: () => string
  /** Resolves with the first match of `pattern` in stdout, or rejects after `timeoutMs`. */
  readonly waitFor: (pattern: RegExp, timeoutMs?: number) => Promise<RegExpMatchArray>
  readonly exited: Promise<number | null>
}

/** Runs one of the product's scripts with Node 24 (this test's own Node) and the given environment. */
export const runScript = (script: string, args: ReadonlyArray<string>, env: Record<string, string>): Running => {
  const child = spawn(process.execPath, [script, ...args], {
    cwd: root,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/tmp", ...env },
    stdio: ["ignore", "pipe", "pipe"]
  })
  let stdout = ""
  let stderr = ""
  child.stdout?.on("data", (chunk: Buffer) => (stdout += chunk.toString()))
  child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()))
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)))
  const waitFor = (pattern: RegExp, timeoutMs = 30_000) =>
    new Promise<RegExpMatchArray>((resolve, reject) => {
      const started = Date.now()
      const poll = setInterval(() => {
        const match = stdout.match(pattern)
        if (match !== null) {
          clearInterval(poll)
          resolve(match)
        } else if (Date.now() - started > timeoutMs || child.exitCode !== null) {
          clearInterval(poll)
          reject(new Error(`did not see ${pattern} in:\n${stdout}\n${stderr}`))
        }
      }, 25)
    })
  return { child, output: () => stdout, errors: () => stderr, waitFor, exited }
}
