import { Effect, Schema } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { randomUUID } from "node:crypto"
import type { AllowedIp } from "../../contract/admin.ts"
import { Forbidden } from "../../contract/common.ts"
import { type IpRange, ipInRange, ipMessages, normalizeIpRange, parseIpRange } from "../../contract/ip-rules.ts"
import { recordActivities } from "../platform/activity-log.ts"
import { inTransaction } from "../platform/database.ts"
import { forgetOnNotify } from "../platform/notify.ts"
import type { Actor } from "./admins.ts"

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

export class IpRefused extends Schema.TaggedError<IpRefused>()("IpRefused", { message: Schema.String }) {}
/** Neither an address nor a range: the message names what is wrong with `ip`. */
export class IpInvalid extends Schema.TaggedError<IpInvalid>()("IpInvalid", { message: Schema.String }) {}
export class IpNotFound extends Schema.TaggedError<IpNotFound>()("IpNotFound", { message: Schema.String }) {}

interface IpRow {
  readonly id: string
  readonly ip: string
  readonly description: string
  readonly createdBy: string | null
  readonly createdAt: Date
}

export const allowedIpOf = (row: IpRow): AllowedIp => ({
  _id: row.id,
  ip: row.ip,
  description: row.description,
  createdBy: row.createdBy,
  createdAt: row.createdAt.toISOString()
})

export const listAllowedIps = Effect.flatMap(SqlClient, (sql) =>
  Effect.map(sql<IpRow>`SELECT id, ip, description, created_by, created_at FROM allowed_ips ORDER BY created_at, id`, (rows) => rows.map(allowedIpOf)))

const rangesOf = (ips: ReadonlyArray<{ readonly ip: string }>) => ips.flatMap((row) => parseIpRange(row.ip) ?? [])

/** The list as this process knows it, read from the database when it is not fresh. */
const currentRanges = Effect.gen(function*() {
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

/**
 * Changes the list in one transaction that holds it against every other change, and refuses a
 * list that would no longer let `callerIp` in (the command line, with no caller, may). Every
 * process forgets its copy once the change has committed.
 */
const changingList = <A, E, R>(callerIp: string | null, change: Effect.Effect<A, E, R>) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient
    yield* sql`LOCK TABLE allowed_ips IN EXCLUSIVE MODE`
    const result = yield* change
    if (callerIp !== null) {
      const after = yield* listAllowedIps
      if (!allows(rangesOf(after), callerIp)) return yield* new IpRefused({ message: ipMessages.lockOut(callerIp) })
    }
    yield* sql`SELECT pg_notify(${ALLOWED_IPS_CHANNEL}, '')`
    return result
  }).pipe(inTransaction, Effect.ensuring(Effect.sync(forgetAllowedIps)))

const logIp = (actor: Actor, action: "ip.allow" | "ip.remove", id: string | null, ip: string) =>
  recordActivities([{ action, entityId: id, toState: action === "ip.allow" ? ip : null, fromState: action === "ip.remove" ? ip : null, actorId: actor?.id ?? null, actorEmail: actor?.email ?? null, ip: actor?.ip ?? null }])

/** Adds an address or range; its text is stored in one canonical form, so a duplicate is found. */
export const allowIp = (text: string, description: string, actor: Actor) =>
  Effect.gen(function*() {
    const ip = normalizeIpRange(text)
    if (ip === undefined) return yield* new IpInvalid({ message: ipMessages.invalid })
    return yield* changingList(actor?.ip ?? null, Effect.gen(function*() {
      const sql = yield* SqlClient
      const id = randomUUID()
      const rows = yield* sql<IpRow>`
        INSERT INTO allowed_ips (id, ip, description, created_by) VALUES (${id}, ${ip}, ${description.trim()}, ${actor?.email ?? null})
        ON CONFLICT (ip) DO NOTHING RETURNING id, ip, description, created_by, created_at`
      const row = rows[0]
      if (row === undefined) return yield* new IpRefused({ message: ipMessages.duplicate(ip) })
      yield* logIp(actor, "ip.allow", id, ip)
      return allowedIpOf(row)
    }))
  })

export const removeAllowedIp = (id: string, actor: Actor) =>
  changingList(actor?.ip ?? null, Effect.gen(function*() {
    const sql = yield* SqlClient
    const rows = yield* sql<{ ip: string }>`DELETE FROM allowed_ips WHERE id = ${id} RETURNING ip`
    const row = rows[0]
    if (row === undefined) return yield* new IpNotFound({ message: ipMessages.notFound })
    yield* logIp(actor, "ip.remove", id, row.ip)
  }))

/** Empties the list (the command line's way back in): every address may sign in again. */
export const clearAllowedIps = changingList(null, Effect.gen(function*() {
  const sql = yield* SqlClient
  const rows = yield* sql<{ id: string; ip: string }>`DELETE FROM allowed_ips RETURNING id, ip`
  for (const row of rows) yield* logIp(null, "ip.remove", row.id, row.ip)
  return rows.length
}))

/** On PostgreSQL other processes change the list too: listen, as for session revocations. */
export const listenForAllowedIps = forgetOnNotify(ALLOWED_IPS_CHANNEL, forgetAllowedIps, "allowed-address changes")
