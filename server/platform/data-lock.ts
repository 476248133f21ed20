import { closeSync, existsSync, linkSync, openSync, readFileSync, renameSync, unlinkSync, writeSync } from "node:fs"
import { basename, relative } from "node:path"
import { fileURLToPath } from "node:url"

/**
 * One process at a time per embedded data folder (docs/architecture.md, "Database"). PGlite is a
 * whole PostgreSQL inside the process that opens it: two processes on one folder each write
 * their own view of it, and the later one silently overwrites the earlier one's acknowledged
 * writes, or leaves a folder that no longer opens. So the folder is locked before PGlite opens
 * it: `<folder>.lock` beside it (never inside it, so a refused process touches nothing of the
 * folder), created exclusively, holding the owner's pid, what it is and when it started.
 */

export interface LockHolder {
  readonly pid: number
  readonly command: string
  readonly since: string
  /** The kernel's start time of the process (Linux), so a reused pid is not taken for the holder. */
  readonly started: string | null
}

export class DataFolderInUse extends Error {
  readonly holder: LockHolder
  constructor(folder: string, holder: LockHolder) {
    super(
      `The data folder ${folder} is in use by process ${holder.pid} (${holder.command}, since ${holder.since}); ` +
        `stop it first, or use npm run admin / backup, which go through it.`
    )
    this.holder = holder
  }
}

// Two folders up, from the sources and from the server's bundle (build/server/, tools/build-server.ts).
const projectRoot = fileURLToPath(new URL("../..", import.meta.url))

const scripts: Record<string, string> = {
  "build/server/main.mjs": "npm start",
  "server/main.ts": "npm run dev",
  "server/cli/migrate.ts": "npm run migrate",
  "server/cli/admin.ts": "npm run admin",
  "server/cli/backup.ts": "npm run backup",
  "server/cli/restore.ts": "npm run restore"
}

/** What this process is, in the words a person typed to start it. */
export const thisCommand = (): string => {
  const script = process.argv[1]
  if (script === undefined) return "node"
  const path = relative(projectRoot, script)
  return scripts[path] ?? `node ${basename(script)}`
}

/** The fields of /proc/PID/stat after the command's name (field 3 on); null off Linux. */
const statFields = (pid: number): ReadonlyArray<string> | null => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8")
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")
  } catch {
    return null
  }
}

/** Field 22 of /proc/PID/stat: when the process started, in clock ticks since boot; null off Linux. */
const startTicks = (pid: number): string | null => statFields(pid)?.[19] ?? null

const isAlive = (holder: LockHolder): boolean => {
  if (holder.pid === process.pid) return false // a lock left by an earlier life of this pid
  try {
    process.kill(holder.pid, 0)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ESRCH") return false
  }
  const fields = statFields(holder.pid)
  // Field 3, the state: a killed process its parent has not yet reaped (Z, zombie; X, dead) still
  // answers kill(pid, 0) but holds nothing, so a restart right after kill -9 need not wait for it.
  if (fields?.[0] === "Z" || fields?.[0] === "X") return false
  const now = fields?.[19] ?? null
  return holder.started === null || now === null || now === holder.started
}

const lockPath = (folder: string) => `${folder}.lock`

const readHolder = (path: string): LockHolder | undefined => {
  try {
    const parsed = JSON.parse(readFileSync(path, "utf8")) as Partial<LockHolder>
    if (typeof parsed.pid !== "number") return undefined
    return {
      pid: parsed.pid,
      command: String(parsed.command ?? "unknown"),
      since: String(parsed.since ?? "unknown"),
      started: typeof parsed.started === "string" ? parsed.started : null
    }
  } catch {
    return undefined
  }
}

/** The live process holding `folder`, if any; a lock left by a dead process counts as none. */
export const liveHolder = (folder: string): LockHolder | undefined => {
  const holder = readHolder(lockPath(folder))
  return holder !== undefined && isAlive(holder) ? holder : undefined
}

export interface DataLock {
  readonly release: () => void
}

/**
 * Takes the lock on `folder` for this process, or throws `DataFolderInUse` naming the live holder.
 * A lock whose process is gone (kill -9, a power cut) is taken over: it is first renamed aside,
 * which only one contender can do to a given file, and its content checked to be the dead one.
 */
export const acquireDataLock = (folder: string, command = thisCommand()): DataLock => {
  const path = lockPath(folder)
  const mine: LockHolder = { pid: process.pid, command, since: new Date().toISOString(), started: startTicks(process.pid) }
  const content = JSON.stringify(mine)
  const draft = `${path}.${process.pid}.new`
  const fd = openSync(draft, "w", 0o600)
  writeSync(fd, content)
  closeSync(fd)
  try {
    for (let attempt = 0; attempt < 5; attempt++) {
      try {
        linkSync(draft, path) // fails if a lock exists: creation is atomic
        const release = () => {
          if (readHolder(path)?.pid === process.pid) unlinkSync(path)
          process.removeListener("exit", release)
        }
        process.on("exit", release)
        return { release }
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error
      }
      const holder = readHolder(path)
      if (holder !== undefined && isAlive(holder)) throw new DataFolderInUse(folder, holder)
      const aside = `${path}.${process.pid}.stale`
      try {
        renameSync(path, aside)
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") continue
        throw error
      }
      const moved = readHolder(aside)
      if (moved !== undefined && isAlive(moved)) {
        // Another process took the lock between our read and our rename: give it back.
        try {
          linkSync(aside, path)
        } finally {
          unlinkSync(aside)
        }
        throw new DataFolderInUse(folder, moved)
      }
      unlinkSync(aside)
    }
    throw new Error(`Could not lock the data folder ${folder}: it keeps changing hands`)
  } finally {
    if (existsSync(draft)) unlinkSync(draft)
  }
}
