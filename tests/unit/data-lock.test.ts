import { spawn } from "node:child_process"
import { once } from "node:events"
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterEach, describe, expect, it } from "vitest"
import { acquireDataLock, DataFolderInUse, liveHolder } from "../../server/platform/data-lock.ts"

/** The data folder's lock (docs/architecture.md, "Database"), apart from the processes the fault suite runs. */
describe("the data folder lock", () => {
  const dirs: Array<string> = []
  const folder = () => {
    const dir = mkdtempSync(join(tmpdir(), "lock-"))
    dirs.push(dir)
    return join(dir, "db")
  }
  afterEach(() => dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })))

  const startedOf = (pid: number) => {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8")
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19]!
  }
  const planted = (db: string, holder: { pid: number; started: string | null }) =>
    writeFileSync(`${db}.lock`, JSON.stringify({ ...holder, command: "npm start", since: "2026-01-01T00:00:00.000Z" }))

  it("is taken, refuses a second taker naming the holder, and is gone once released", () => {
    const db = folder()
    const lock = acquireDataLock(db, "npm start")
    expect(liveHolder(db)).toBeUndefined() // its own pid counts as an earlier life, never as a live holder
    planted(db, { pid: process.ppid, started: startedOf(process.ppid) })
    expect(() => acquireDataLock(db, "npm run migrate")).toThrow(DataFolderInUse)
    expect(() => acquireDataLock(db, "npm run migrate")).toThrow(`in use by process ${process.ppid} (npm start, since 2026-01-01T00:00:00.000Z)`)
    rmSync(`${db}.lock`)
    lock.release()
    expect(existsSync(`${db}.lock`)).toBe(false)
  })

  it("takes over a lock whose process is dead, or whose pid now belongs to a process started later", () => {
    const db = folder()
    planted(db, { pid: 2 ** 22 + 7, started: "1" })
    const first = acquireDataLock(db, "npm start")
    expect(JSON.parse(readFileSync(`${db}.lock`, "utf8")).pid).toBe(process.pid)
    first.release()
    planted(db, { pid: process.ppid, started: "1" })
    expect(liveHolder(db)).toBeUndefined()
    const second = acquireDataLock(db, "npm start")
    expect(JSON.parse(readFileSync(`${db}.lock`, "utf8")).pid).toBe(process.pid)
    second.release()
  })

  it("takes over a lock whose process was killed but not yet reaped (a zombie)", async () => {
    const db = folder()
    // The child exits a moment after the shell has become `sleep`, which never reaps it: a zombie
    // until `sleep` ends. (A child that ended before the exec could be reaped by the shell itself.)
    const parent = spawn("sh", ["-c", "sleep 0.3 & echo $!; exec sleep 10"], { stdio: ["ignore", "pipe", "ignore"] })
    try {
      const pid = Number((await once(parent.stdout, "data"))[0].toString().trim())
      await expect.poll(() => readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.[0]).toBe("Z")
      planted(db, { pid, started: startedOf(pid) })
      expect(liveHolder(db)).toBeUndefined()
      const lock = acquireDataLock(db, "npm start")
      expect(JSON.parse(readFileSync(`${db}.lock`, "utf8")).pid).toBe(process.pid)
      lock.release()
    } finally {
      parent.kill("SIGKILL")
    }
  })

  it("does not remove a lock that another process holds now", () => {
    const db = folder()
    const lock = acquireDataLock(db, "npm start")
    planted(db, { pid: process.ppid, started: startedOf(process.ppid) })
    lock.release()
    expect(liveHolder(db)?.pid).toBe(process.ppid)
  })
})
