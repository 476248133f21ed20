import { Context } from "effect"

/**
 * What this server's writes last met (docs/architecture.md, "A full disk"). PostgreSQL does not
 * tell a client how much room its disk has left; it refuses a write that needs room it has not
 * got (SQLSTATE 53100) and takes the next one once there is room again. So a server on
 * PostgreSQL knows its database's disk by its writes: `/api/health` says writes are failing while
 * the last write the database refused for want of space is newer than the last write that
 * succeeded. Each server knows its own writes.
 */
export interface WriteOutcomes {
  readonly succeeded: () => void
  readonly refusedForSpace: () => void
  readonly current: () => WritesState
}

export interface WritesState {
  readonly failing: boolean
  /** When the database last refused a write for want of space, if it has since this server started. */
  readonly lastRefusedAt: Date | null
}

export const makeWriteOutcomes = (): WriteOutcomes => {
  let lastRefusedAt: Date | null = null
  let failing = false
  return {
    succeeded: () => void (failing = false),
    refusedForSpace: () => {
      lastRefusedAt = new Date()
      failing = true
    },
    current: () => ({ failing, lastRefusedAt })
  }
}

export class ServerWrites extends Context.Service<ServerWrites, WriteOutcomes>()("platform/ServerWrites") {}
