import { existsSync, mkdirSync, statfsSync } from "node:fs"
import { dirname, resolve } from "node:path"

/**
 * The checks of the data folder made before a server starts (server/main.ts, which imports this
 * before anything heavy so a bad start fails at once) and the arithmetic of the reserve (disk.ts).
 */

export const MB = 1024 * 1024

/** Free space for this process on a disk, in bytes. */
export const freeBytes = (stats: { readonly bavail: number; readonly bsize: number }) => stats.bavail * stats.bsize

export const readingOf = (free: number, reserveMb: number) => ({
  freeMb: Math.floor(free / MB),
  reserveMb,
  low: free < reserveMb * MB
})

/** `folder`, or its nearest parent that exists (a first start makes the folder). */
const existing = (folder: string): string => (existsSync(folder) || dirname(folder) === folder ? folder : existing(dirname(folder)))

/** Why a start is refused, or undefined: the disk that will hold `folder` is below the reserve. */
export const startProblem = (folder: string, reserveMb: number): string | undefined => {
  const reading = readingOf(freeBytes(statfsSync(existing(resolve(folder)))), reserveMb)
  return reading.low
    ? `Cannot start: the disk that holds ${folder} has ${reading.freeMb} MB free, and the embedded database needs at least ` +
        `${reserveMb} MB (DISK_RESERVE_MB). Free some space and start again.`
    : undefined
}

/**
 * Makes the data folder when the server will write in it: the embedded database lives there, and
 * without `SMTP_URL` so does the outbox. A server on PostgreSQL with SMTP needs none and leaves it
 * alone. Why a start is refused, or undefined.
 */
export const dataFolderProblem = (config: { readonly dataDir: string; readonly databaseUrl: string | undefined; readonly smtpUrl: string | undefined }) => {
  if (config.databaseUrl !== undefined && config.smtpUrl !== undefined) return undefined
  try {
    mkdirSync(config.dataDir, { recursive: true })
    return undefined
  } catch (error) {
    return `Cannot start: the data folder ${config.dataDir} (DATA_DIR) cannot be made: ${error instanceof Error ? error.message : String(error)}`
  }
}
