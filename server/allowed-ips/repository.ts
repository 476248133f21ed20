import { Effect, Schema } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { randomUUID } from "node:crypto"
import type { AllowedIp } from "../../contract/allowed-ips.ts"
import { Conflict, Forbidden } from "../../contract/common.ts"
import { type IpRange, ipInRange, ipMessages, normalizeIpRange, parseIpRange } from "../../contract/ip-rules.ts"
import { dieOnSqlError } from "../platform/database.ts"
import { forgetOnNotify } from "../platform/notify.ts"
import { type Actor, commandLine, createRecord, removeRecord, removeRecords, takenBy, type VersionedTable } from "../platform/record-writes.ts"

/**
 * The allowed-address list (docs/api.md, "Allowed addresses"). While it is empty every address
 * may use the admin API; once it holds an entry, only addresses it covers may, sign-in included.
 * Each process keeps the list in memory and reads it again when a change is announced with
 * `NOTIFY allowed_ips_changed` (every process on PostgreSQL hears it) or after a minute.
 */

export const ALLOWED_IPS_CHANNEL = "allowed_ips_changed"
const TTL_MS = 60_000

/** Per database (a test process runs servers on several): the list and until when it is trusted. */
const cached = new Map<SqlClient, { readonly ranges: ReadonlyArray<IpRange>; readonly until: number }>()
/** Moves on each forgetting: a list read before it is not kept after it. */
let generation = 0

const forgetAllowedIps = () => {
  generation += 1
  cached.clear()
}

/** Neither an address nor a range: the message names what is wrong with `ip`. */
export class IpInvalid extends Schema.TaggedError<IpInvalid>()("IpInvalid", { message: Schema.String }) {}

export interface IpRow {
  readonly id: string
  readonly ip: string
  readonly description: string
  readonly createdBy: string | null
  readonly createdAt: Date
  readonly version: number
}

export const allowedIpOf = (row: IpRow): AllowedIp => ({
  _id: row.id,
  ip: row.ip,
  description: row.description,
  createdBy: row.createdBy,
  createdAt: row.createdAt.toISOString()
})

export const listAllowedIps = Effect.flatMap(SqlClient, (sql) =>
  Effect.map(sql<IpRow>`SELECT id, ip, description, created_by, created_at FROM allowed_ips ORDER BY created_at, id`, (rows) => rows.map(allowedIpOf))
).pipe(dieOnSqlError)

const rangesOf = (ips: ReadonlyArray<{ readonly ip: string }>) => ips.flatMap((row) => parseIpRange(row.ip) ?? [])

/** The list as this process knows it, read from the database when it is not fresh. */
const currentRanges = Effect.gen(function* () {
  const sql = yield* SqlClient
  const known = cached.get(sql)
  if (known !== undefined && known.until > Date.now()) return known.ranges
  const readAt = generation
  const ranges = rangesOf(yield* listAllowedIps)
  if (readAt === generation) cached.set(sql, { ranges, until: Date.now() + TTL_MS })
  return ranges
})

const allows = (ranges: ReadonlyArray<IpRange>, ip: string) => ranges.length === 0 || ranges.some((range) => ipInRange(ip, range))

/** Answers 403 "Your address is not allowed." when the list names addresses and not this one. */
export const requireAllowedIp = (ip: string) =>
  Effect.flatMap(currentRanges, (ranges) => (allows(ranges, ip) ? Effect.void : Effect.fail(new Forbidden({ error: ipMessages.refused }))))

export const ipTable: VersionedTable = {
  table: "allowed_ips",
  columns: "id, ip, description, created_by, created_at, version",
  messages: { notFound: ipMessages.notFound, stale: ipMessages.notFound }
}

/** Every change of the list holds the whole list against every other change (taken before any of its rows). */
const holdList = Effect.flatMap(SqlClient, (sql) => sql`LOCK TABLE allowed_ips IN EXCLUSIVE MODE`).pipe(dieOnSqlError)

/**
 * What every change of the list checks and does before it commits: the list may not shut out
 * the address making the change (the command line, from no address, may), and every process
 * forgets its copy (`NOTIFY`, heard by every process on PostgreSQL; this one forgets once the
 * change is over).
 */
const keepsCallerIn = (actor: Actor) =>
  Effect.gen(function* () {
    const callerIp = "session" in actor ? actor.session.ip : actor.ip
    const sql = yield* SqlClient
    if (callerIp !== null) {
      const after = yield* listAllowedIps
      if (!allows(rangesOf(after), callerIp)) return yield* new Conflict({ error: ipMessages.lockOut(callerIp) })
    }
    yield* sql`SELECT pg_notify(${ALLOWED_IPS_CHANNEL}, '')`
  }).pipe(dieOnSqlError)

const forgettingList = <A, E, R>(change: Effect.Effect<A, E, R>) => Effect.ensuring(change, Effect.sync(forgetAllowedIps))

/**
 * Adds an address or range on the one write path (server/platform/record-writes.ts), as `by`
 * (nobody from the command line, the signed-in super admin from the screen); its text is stored
 * in one canonical form, so a duplicate is found.
 */
export const allowIp = (text: string, description: string, by: Actor) =>
  Effect.gen(function* () {
    const ip = normalizeIpRange(text)
    if (ip === undefined) return yield* new IpInvalid({ message: ipMessages.invalid })
    const { row } = yield* createRecord<IpRow, Conflict, SqlClient>(ipTable, {
      values: { id: randomUUID(), ip, description: description.trim(), createdBy: "session" in by ? by.session.user.email : null },
      unique: { index: "ip", taken: () => takenBy("ip", ipMessages.duplicate(ip)) },
      lockFirst: holdList,
      check: () => keepsCallerIn(by),
      events: (made) => ({ action: "ip.allow", entityId: made.id, toState: made.ip }),
      actor: by
    }).pipe(forgettingList)
    return allowedIpOf(row)
  })

/** Removes one address or range (it has no other version than its first: nothing to be stale against). */
export const removeAllowedIp = (id: string, by: Actor) =>
  Effect.gen(function* () {
    yield* removeRecord<IpRow, Conflict, SqlClient>(ipTable, {
      id,
      expectedVersion: "current",
      lockFirst: holdList,
      check: () => keepsCallerIn(by),
      events: (before) => ({ action: "ip.remove", entityId: before.id, fromState: before.ip }),
      actor: by
    }).pipe(forgettingList)
  })

/**
 * Brings a removed address back as it was (record history's restore, server/history/): the same
 * id, the version after its removal, the list's rules as for any addition.
 */
export const restoreAllowedIp = (
  id: string,
  content: { readonly ip: string; readonly description: string },
  version: number,
  restoredVersion: number,
  by: Actor
) =>
  createRecord<IpRow, Conflict, SqlClient>(ipTable, {
    values: { id, ip: content.ip, description: content.description, createdBy: "session" in by ? by.session.user.email : null, version },
    lockFirst: holdList,
    check: () => keepsCallerIn(by),
    events: (made) => ({ action: "ip.restore", entityId: made.id, toState: made.ip, details: { restoredVersion } }),
    taken: (constraint) =>
      constraint === "allowed_ips_ip_key" ? new Conflict({ error: ipMessages.duplicate(content.ip) }) : new Conflict({ error: ipMessages.notFound }),
    actor: by
  }).pipe(forgettingList)

/** Empties the list (the command line's way back in): every address may sign in again. Answers how many were removed. */
export const clearAllowedIps = removeRecords<IpRow, Conflict, SqlClient>(ipTable, {
  where: (sql) => sql`TRUE`,
  lockFirst: holdList,
  check: () => keepsCallerIn(commandLine),
  events: (before) => ({ action: "ip.remove", entityId: before.id, fromState: before.ip }),
  actor: commandLine
}).pipe(
  forgettingList,
  Effect.map((removed) => removed.length)
)

/** On PostgreSQL other processes change the list too: listen, as for session revocations. */
export const listenForAllowedIps = forgetOnNotify(ALLOWED_IPS_CHANNEL, forgetAllowedIps, "allowed-address changes")
