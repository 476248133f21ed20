import { Effect } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { dieOnSqlError } from "../platform/database.ts"
import { type ActivityEntry, activityAreas } from "../../contract/activity.ts"
import type { AdminUser } from "../../contract/auth.ts"
import { readableAreas, seesStaffAddresses, seesStaffEmails } from "../auth/roles.ts"
import { EXPORT_BATCH, keysetRows, pageWindow, paginate } from "../platform/lists.ts"
import { containsPattern } from "../platform/search.ts"

/**
 * The activity log in the database: its filters, pages and export (the dashboard's figures:
 * analytics.ts).
 */

interface LogQuery {
  readonly username?: string | undefined
  readonly area?: string | undefined
  readonly action?: string | undefined
  readonly record?: string | undefined
  readonly from?: string | undefined
  readonly to?: string | undefined
}

/** Who reads the log: what they see of it follows their role (server/auth/roles.ts). */
export type Reader = Pick<AdminUser, "_id" | "email" | "role">

export interface LogRow {
  readonly id: string
  readonly at: Date
  readonly actorId: string | null
  readonly actorEmail: string | null
  readonly actorName: string | null
  readonly action: string
  readonly entity: string
  readonly entityId: string | null
  readonly fromState: string | null
  readonly toState: string | null
  readonly ip: string | null
  readonly recordLabel: string | null
  readonly recordKind: string | null
  readonly recordSlug: string | null
}

const isDay = (text: string) => /^\d{4}-\d{2}-\d{2}$/.test(text)

/** A day or a moment: `from` a day is its first instant, `to` a day is the instant after it. */
const instant = (text: string, end: boolean) => {
  if (!isDay(text)) return new Date(text)
  const day = new Date(`${text}T00:00:00Z`)
  // The parser rolls 2026-02-31 over into March; a day that is not on the calendar is no day.
  if (Number.isNaN(day.getTime()) || day.toISOString().slice(0, 10) !== text) return new Date(Number.NaN)
  return end ? new Date(day.getTime() + 86_400_000) : day
}

const validDate = (date: Date) => !Number.isNaN(date.getTime())

/** Whether the query filters by more than the area: then its total is counted, not read. */
const narrowed = (query: LogQuery) =>
  [query.username, query.action, query.record, query.from, query.to].some((value) => value !== undefined && value.trim() !== "")

const areaOf = (query: LogQuery) => (query.area === undefined || query.area === "all" ? undefined : query.area)

/**
 * What of the query's area (or the whole log) the reader may read: the areas they read whole, the
 * areas of which they read the events they did (their own sessions), and whether that is everything.
 */
const scopeOf = (reader: Reader, query: LogQuery) => {
  const { all, own } = readableAreas(reader.role)
  const area = areaOf(query)
  const whole = area === undefined ? all : all.filter((name) => name === area)
  const mine = area === undefined ? own : own.filter((name) => name === area)
  return { whole, mine, everything: mine.length === 0 && whole.length === (area === undefined ? activityAreas.length : 1) }
}

/** The reader's rights as one filter: the areas they read whole, and of the others the events they did. */
const rightsOf = (sql: SqlClient, reader: Reader, query: LogQuery) => {
  const { whole, mine, everything } = scopeOf(reader, query)
  if (everything) return sql`true`
  const parts = [
    ...(whole.length === 0 ? [] : [sql`l.entity IN ${sql.in(whole)}`]),
    ...(mine.length === 0 ? [] : [sql`(l.entity IN ${sql.in(mine)} AND l.actor_email = ${reader.email})`])
  ]
  return parts.length === 0 ? sql`false` : sql.or(parts)
}

/** The query's filters within the reader's rights, and the e-mails of the actors it names (when it names some). */
const filtersOf = (sql: SqlClient, query: LogQuery, reader: Reader) =>
  Effect.gen(function* () {
    const filters = [rightsOf(sql, reader, query)]
    let actorEmails: ReadonlyArray<string> | undefined
    const username = query.username?.trim() ?? ""
    if (username !== "") {
      // Admins are few: the ones whose name or e-mail contains the text, then their events by
      // the e-mail each event carries (an index, newest first); someone who is not an admin (a
      // refused sign-in) by the exact e-mail they typed. An e-mail is matched only where the
      // reader may read it (their own, or everyone's as a super admin), so the filter tells
      // nobody an e-mail the log would not show them (docs/security.md, "Roles").
      const pattern = containsPattern(username)
      const emails = seesStaffEmails(reader.role)
      const readable = emails ? sql`true` : sql`id = ${reader._id}`
      const actors = yield* sql<{ email: string }>`SELECT email FROM admins
        WHERE lower(coalesce(name, '')) LIKE ${pattern} OR (lower(email) LIKE ${pattern} AND ${readable})`
      const named = [...new Set([...actors.map((actor) => actor.email), ...(emails ? [username.toLowerCase()] : [])])]
      actorEmails = named.length === 0 ? undefined : named
      filters.push(actorEmails === undefined ? sql`false` : sql`l.actor_email IN ${sql.in(actorEmails)}`)
    }
    if (query.area !== undefined && query.area !== "all") filters.push(sql`l.entity = ${query.area}`)
    if (query.action !== undefined) filters.push(sql`l.action = ${query.action}`)
    if (query.record !== undefined && query.record.trim() !== "") filters.push(sql`l.entity_id = ${query.record.trim()}`)
    const from = query.from === undefined ? undefined : instant(query.from, false)
    const to = query.to === undefined ? undefined : instant(query.to, !query.to.includes("T") && isDay(query.to))
    // A date the pattern admits but the calendar does not (2026-02-31) matches nothing.
    if ((from !== undefined && !validDate(from)) || (to !== undefined && !validDate(to))) filters.push(sql`false`)
    else {
      if (from !== undefined) filters.push(sql`l.at >= ${from}`)
      if (to !== undefined) filters.push(sql`l.at < ${to}`)
    }
    return { filters, actorEmails }
  })

/** Whether the query narrows by the actor alone: its total is then the actors' kept counts. */
const onlyActors = (query: LogQuery) =>
  areaOf(query) === undefined && [query.action, query.record, query.from, query.to].every((value) => value === undefined || value.trim() === "")

/**
 * How many events match: read from the kept counts for the whole log, one area or some actors
 * (with the reader's own events of an area they read only their own of counted on the actor's
 * index), counted otherwise.
 */
const totalOf = (
  sql: SqlClient,
  query: LogQuery,
  reader: Reader,
  { filters, actorEmails }: { readonly filters: ReadonlyArray<ReturnType<SqlClient["and"]>>; readonly actorEmails: ReadonlyArray<string> | undefined }
) => {
  const { whole, mine, everything } = scopeOf(reader, query)
  const kept = whole.length === 0 ? sql`0` : sql`(SELECT coalesce(sum(total), 0) FROM activity_counts WHERE entity IN ${sql.in(whole)})`
  const own = mine.length === 0 ? sql`0` : sql`(SELECT count(*) FROM activity_log WHERE actor_email = ${reader.email} AND entity IN ${sql.in(mine)})`
  return Effect.map(
    actorEmails !== undefined && onlyActors(query) && everything
      ? sql<{ n: number }>`SELECT coalesce(sum(total), 0)::int AS n FROM activity_actor_counts WHERE actor_email IN ${sql.in(actorEmails)}`
      : narrowed(query)
        ? sql<{ n: number }>`SELECT count(*)::int AS n FROM activity_log l WHERE ${sql.and(filters)}`
        : sql<{ n: number }>`SELECT (${kept} + ${own})::int AS n`,
    (rows) => rows[0]?.n ?? 0
  )
}

/**
 * What each event's record is called now, for a page of events only (`l`, with `uid` the id as
 * a uuid where it is one): a name that changed shows its new name, a deleted record none.
 */
const recordColumns = `
  CASE l.entity
    WHEN 'blog' THEN (SELECT title FROM blog_posts WHERE id = l.uid)
    WHEN 'address' THEN (SELECT name FROM addresses WHERE id = l.uid)
    WHEN 'listing' THEN (SELECT name FROM listings WHERE id = l.uid)
    WHEN 'scam-report' THEN (SELECT coalesce(nullif(wallet_address, ''), replace(scam_type, '_', ' ')) FROM scam_reports WHERE id = l.uid)
    WHEN 'contact' THEN (SELECT subject FROM core_team_contacts WHERE id = l.uid)
    WHEN 'inquiry' THEN (SELECT company_name FROM advertising_inquiries WHERE id = l.uid)
    WHEN 'admin' THEN (SELECT email FROM admins WHERE id = l.uid)
    WHEN 'protected-data' THEN (SELECT type || ': ' || key FROM protected_data WHERE id = l.uid)
    WHEN 'ip' THEN coalesce(l.to_state, l.from_state)
  END AS record_label,
  coalesce(l.details->>'kind', l.details->>'type') AS record_kind,
  CASE WHEN l.entity = 'blog' THEN (SELECT slug FROM blog_posts WHERE id = l.uid) END AS record_slug`

const logColumns = `l.id::text AS id, l.at, l.actor_id::text AS actor_id, l.actor_email, (SELECT name FROM admins WHERE id = l.actor_id) AS actor_name, l.action, l.entity,
  l.entity_id, l.from_state, l.to_state, l.ip, ${recordColumns}`

/** The events matching `filters`, newest first, with their records' names. */
const eventsWhere = (sql: SqlClient, filters: ReadonlyArray<ReturnType<SqlClient["and"]>>, limit: number, offset: number) =>
  sql<LogRow>`
    SELECT ${sql.unsafe(logColumns)} FROM (
      SELECT l.*, CASE WHEN l.entity_id ~ '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$' THEN l.entity_id::uuid END AS uid
      FROM activity_log l WHERE ${sql.and(filters)} ORDER BY l.id DESC LIMIT ${limit} OFFSET ${offset}
    ) l ORDER BY l.id DESC`

/**
 * An event as `reader` sees it: another staff member's address only when they may read everyone's
 * sessions, their e-mail only when they may read admin accounts (a moderator's own session events
 * carry the moderator's e-mail, even a stranger's wrong code typed with it).
 */
export const entryOf = (row: LogRow, reader: Reader): ActivityEntry => ({
  _id: row.id,
  at: row.at.toISOString(),
  actorId: row.actorId,
  actorEmail: row.actorEmail === reader.email || seesStaffEmails(reader.role) ? row.actorEmail : null,
  actorName: row.actorName,
  action: row.action,
  area: row.entity,
  entityId: row.entityId,
  fromState: row.fromState,
  toState: row.toState,
  ip: row.actorId === null || row.actorId === reader._id || seesStaffAddresses(reader.role) ? row.ip : null,
  record: { label: row.recordLabel, kind: row.recordKind, slug: row.recordSlug }
})

/** A page of the events `reader` may read (the log's screen and the dashboard's Recent Activity). */
export const listEvents = (query: LogQuery & { readonly page?: number | undefined; readonly limit?: number | undefined }, reader: Reader) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient
    const { page, limit, offset } = pageWindow(query)
    const filtered = yield* filtersOf(sql, query, reader)
    const rows = yield* eventsWhere(sql, filtered.filters, limit, offset)
    return { logs: rows.map((row) => entryOf(row, reader)), pagination: paginate(page, limit, yield* totalOf(sql, query, reader, filtered)) }
  }).pipe(dieOnSqlError)

/** Every event `reader` may read that matches, for the CSV. */
export const exportEvents = (query: LogQuery, reader: Reader) =>
  keysetRows((after: LogRow | undefined) =>
    Effect.gen(function* () {
      const sql = yield* SqlClient
      const { filters } = yield* filtersOf(sql, query, reader)
      return yield* eventsWhere(sql, [...filters, ...(after === undefined ? [] : [sql`l.id < ${after.id}::bigint`])], EXPORT_BATCH, 0)
    })
  )

/** The counts a period of analytics is made of, from `since` per `bucket` (analytics.ts shapes them). */
export const analyticsCounts = (bucket: "day" | "month", since: string) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient
    // One round trip: every figure is a read of a count the database keeps, or an index count.
    const rows = yield* sql<{
      listings: ReadonlyArray<{ type: string; status: string; total: number }> | string
      blogs: number
      scamReports: number
      contacts: number
      inquiries: number
      paidInquiries: number
      created: ReadonlyArray<{ start: string; total: number }> | string | null
      firstDay: string | null
    }>`
        SELECT
          (SELECT json_agg(json_build_object('type', type, 'status', status, 'total', total)) FROM listing_counts) AS listings,
          (SELECT count(*)::int FROM blog_posts) AS blogs,
          (SELECT coalesce(sum(total), 0)::int FROM scam_report_counts WHERE status = 'new') AS scam_reports,
          (SELECT count(*)::int FROM core_team_contacts WHERE status = 'new') AS contacts,
          (SELECT coalesce(sum(total), 0)::int FROM inquiry_counts WHERE status = 'pending') AS inquiries,
          (SELECT coalesce(sum(total), 0)::int FROM inquiry_counts WHERE status = 'paid') AS paid_inquiries,
          (SELECT json_agg(json_build_object('start', start, 'total', total)) FROM (
            SELECT date_trunc(${bucket}, day)::date::text AS start, sum(total)::int AS total
            FROM daily_counts WHERE day >= ${since}::date GROUP BY 1
          ) AS created) AS created,
          (SELECT min(day)::text FROM daily_counts) AS first_day`
    return rows[0]!
  }).pipe(dieOnSqlError)
