import { Effect } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import fc from "fast-check"
import { randomUUID } from "node:crypto"
import { call } from "./http.ts"
import type { TestServer } from "./server.ts"
import { signedInAs } from "./session.ts"

/**
 * The fuzz suite's engine (docs/api.md, "Answers and errors"): requests generated from the OpenAPI document
 * the server publishes, so every endpoint in the contract is covered without being listed here.
 * Path parameters, query strings, headers and bodies come from each operation's schemas, mixed
 * with hostile values (NUL, lone surrogates, 100 kB strings, 1e20, wrong types, duplicate keys),
 * sent as anonymous, moderator, admin and super admin. Two rules are checked after each one:
 * no 5xx, and a refused write changes nothing the API keeps (row counts, versions, the activity
 * log; the sign-in bookkeeping of codes, sessions, rate limits and logged sign-in attempts is
 * allowed to move).
 */

type JsonSchema = {
  readonly $ref?: string
  readonly type?: string | ReadonlyArray<string>
  readonly enum?: ReadonlyArray<unknown>
  readonly const?: unknown
  readonly anyOf?: ReadonlyArray<JsonSchema>
  readonly oneOf?: ReadonlyArray<JsonSchema>
  readonly allOf?: ReadonlyArray<JsonSchema>
  readonly properties?: Record<string, JsonSchema>
  readonly required?: ReadonlyArray<string>
  readonly items?: JsonSchema
  readonly pattern?: string
  readonly format?: string
  readonly minimum?: number
  readonly maximum?: number
  readonly maxLength?: number
}

interface Operation {
  readonly method: string
  readonly path: string
  readonly parameters: ReadonlyArray<{ readonly name: string; readonly in: string; readonly required?: boolean; readonly schema?: JsonSchema }>
  readonly body: JsonSchema | undefined
  readonly bodyType: string | undefined
}

export interface FuzzRequest {
  readonly method: string
  readonly path: string
  readonly role: Role
  readonly raw: string | undefined
  readonly headers: Record<string, string>
}

type Role = "anonymous" | "moderator" | "admin" | "super_admin"

export const hostileStrings = [
  "\u0000",
  "a\u0000b",
  "\ud800",
  "x\udfffy",
  "x".repeat(100_000),
  "",
  " ",
  "javascript:alert(1)",
  "<script>alert(1)</script>",
  "' OR 1=1 --",
  "%00",
  "../../etc/passwd",
  "🦄".repeat(50),
  "1e20",
  "-1",
  "NaN",
  "null",
  "notauuid",
  "\u202e\u0007",
  "00000000-0000-0000-0000-000000000000"
]
const hostileNumbers = [1e20, -1e20, -5, 0, 1.5, Number.MAX_SAFE_INTEGER + 2, -0]
const hostileValues: ReadonlyArray<unknown> = [...hostileStrings, ...hostileNumbers, true, false, null, [], {}, [1, "a"], { a: { b: [] } }]

const hostile = fc.constantFrom(...hostileValues)

type OpenApiDocument = { paths: Record<string, Record<string, unknown>>; components?: { schemas?: Record<string, JsonSchema> } }

export class Spec {
  readonly document: OpenApiDocument
  constructor(document: OpenApiDocument) {
    this.document = document
  }

  resolve(schema: JsonSchema | undefined): JsonSchema {
    let current = schema ?? {}
    for (let depth = 0; current.$ref !== undefined && depth < 20; depth++) {
      const name = current.$ref.split("/").at(-1)!
      current = this.document.components?.schemas?.[name] ?? {}
    }
    return current
  }

  operations(): ReadonlyArray<Operation> {
    const result: Array<Operation> = []
    for (const [path, methods] of Object.entries(this.document.paths)) {
      for (const [method, raw] of Object.entries(methods)) {
        if (!["get", "post", "put", "patch", "delete"].includes(method)) continue
        const operation = raw as { parameters?: Operation["parameters"]; requestBody?: { content?: Record<string, { schema?: JsonSchema }> } }
        const content = operation.requestBody?.content ?? {}
        const bodyType = Object.keys(content)[0]
        result.push({
          method: method.toUpperCase(),
          path,
          parameters: operation.parameters ?? [],
          body: bodyType === undefined ? undefined : content[bodyType]?.schema,
          bodyType
        })
      }
    }
    return result
  }

  /** A value meant to match `schema`, at any depth sometimes swapped for a hostile one. */
  value(schema: JsonSchema | undefined, depth = 0): fc.Arbitrary<unknown> {
    return fc.oneof({ weight: 6, arbitrary: this.valid(schema, depth) }, { weight: 1, arbitrary: hostile })
  }

  private valid(raw: JsonSchema | undefined, depth: number): fc.Arbitrary<unknown> {
    const schema = this.resolve(raw)
    if (depth > 6) return fc.constant(null)
    if (schema.const !== undefined) return fc.constant(schema.const)
    if (schema.enum !== undefined) return fc.constantFrom(...schema.enum)
    const choices = schema.anyOf ?? schema.oneOf
    if (choices !== undefined && choices.length > 0) return fc.oneof(...choices.map((choice) => this.valid(choice, depth + 1)))
    if (schema.allOf !== undefined && schema.allOf.length > 0) {
      // Every part holds at once: an array's bounds beside the part that names its items.
      const { allOf, ...rest } = schema
      return this.valid(Object.assign({}, rest, ...allOf.map((part) => this.resolve(part))) as JsonSchema, depth + 1)
    }
    const type = Array.isArray(schema.type) ? schema.type[0] : schema.type
    switch (type) {
      case "string": {
        if (schema.format === "date-time" || schema.pattern?.includes("\\d{4}-\\d{2}-\\d{2}T") === true) {
          return fc.date({ min: new Date("2000-01-01"), max: new Date("2100-01-01"), noInvalidDate: true }).map((date) => date.toISOString())
        }
        if (schema.pattern !== undefined) {
          try {
            return fc.stringMatching(new RegExp(schema.pattern)).map((text) => text.slice(0, schema.maxLength ?? 300))
          } catch {
            // a pattern this engine cannot read: plain strings
          }
        }
        return fc.oneof(
          fc.string({ maxLength: Math.min(schema.maxLength ?? 40, 40) }),
          fc.constantFrom("https://example.com/a.png", "/uploads/a.png", "Title", "someone@example.com")
        )
      }
      case "integer":
        return fc.integer({ min: Math.max(schema.minimum ?? -1000, -1_000_000), max: Math.min(schema.maximum ?? 1000, 1_000_000) })
      case "number":
        return fc.double({ min: schema.minimum ?? -1000, max: schema.maximum ?? 1000, noNaN: true })
      case "boolean":
        return fc.boolean()
      case "null":
        return fc.constant(null)
      case "array":
        return fc.array(this.value(schema.items, depth + 1), { maxLength: 4 })
      case "object": {
        const properties = schema.properties ?? {}
        const required = new Set(schema.required ?? [])
        const fields = Object.entries(properties).map(
          ([key, value]) =>
            [key, required.has(key) ? this.value(value, depth + 1) : fc.option(this.value(value, depth + 1), { nil: undefined, freq: 2 })] as const
        )
        return fc.record(Object.fromEntries(fields)).map((record) => Object.fromEntries(Object.entries(record).filter(([, value]) => value !== undefined)))
      }
      default:
        return fc.oneof(fc.string({ maxLength: 10 }), fc.integer(), fc.constant(null))
    }
  }
}

/** A path parameter: a real record's id, a random UUID, or something that is not an id at all. */
const pathValue = (known: () => ReadonlyArray<string>) =>
  fc.oneof(
    {
      weight: 3,
      arbitrary: fc
        .constant(null)
        .map(() => known())
        .chain((ids) => (ids.length === 0 ? fc.uuid() : fc.constantFrom(...ids)))
    },
    { weight: 2, arbitrary: fc.uuid() },
    { weight: 2, arbitrary: fc.constantFrom(...hostileStrings.filter((text) => text.length < 1000), "a/b", "..", "x%2Fy") }
  )

/** Percent-encodes any string, a lone surrogate included (as the bytes a careless client would send). */
const encodeSegment = (text: string): string =>
  Array.from(text, (char) => {
    try {
      return encodeURIComponent(char)
    } catch {
      const unit = char.charCodeAt(0)
      return [0xe0 | (unit >> 12), 0x80 | ((unit >> 6) & 0x3f), 0x80 | (unit & 0x3f)].map((byte) => `%${byte.toString(16).toUpperCase()}`).join("")
    }
  }).join("")

/** Sometimes a key written twice: JSON readers keep the last, and so must the API. */
const withDuplicateKey = (text: string) => {
  const match = text.match(/^\{"([^"]+)":/)
  return match === null ? text : `{"${match[1]}":"first",${text.slice(1)}`
}

export const requestFor = (spec: Spec, operation: Operation, known: () => ReadonlyArray<string>): fc.Arbitrary<FuzzRequest> => {
  const pathParams = operation.parameters.filter((parameter) => parameter.in === "path")
  const queryParams = operation.parameters.filter((parameter) => parameter.in === "query")
  const pathArb = fc
    .tuple(...pathParams.map(() => pathValue(known)))
    .map((values) => pathParams.reduce((path, parameter, i) => path.replace(`{${parameter.name}}`, encodeSegment(String(values[i]))), operation.path))
  const queryArb = fc.tuple(...queryParams.map((parameter) => fc.option(spec.value(parameter.schema), { nil: undefined, freq: 2 }))).map((values) => {
    const search = new URLSearchParams()
    queryParams.forEach((parameter, i) => {
      const value = values[i]
      if (value !== undefined) search.append(parameter.name, typeof value === "string" ? value : JSON.stringify(value))
    })
    const text = search.toString()
    return text === "" ? "" : `?${text}`
  })
  const bodyArb: fc.Arbitrary<string | undefined> =
    operation.body === undefined
      ? fc.constant(undefined)
      : fc.oneof(
          { weight: 8, arbitrary: spec.value(operation.body).map((value) => JSON.stringify(value)) },
          { weight: 1, arbitrary: spec.value(operation.body).map((value) => withDuplicateKey(JSON.stringify(value) ?? "null")) },
          { weight: 1, arbitrary: fc.constantFrom("", "{", "null", "[]", '"x"', '{"a":1e999}', "\u0000") }
        )
  const headerArb = fc
    .record({
      "content-type": fc.constantFrom("application/json", "application/json", "text/plain", "multipart/form-data; boundary=x"),
      accept: fc.constantFrom("application/json", "text/csv", "*/*"),
      // A few keys used again and again, across endpoints and bodies (first runs, repeats, 422s), and bad ones.
      key: fc.option(fc.constantFrom("fuzz-key-aaaaaaaaaaaa-1", "fuzz-key-aaaaaaaaaaaa-2", "fuzz-key-aaaaaaaaaaaa-3", "short", "bad key with spaces!!", ""), {
        freq: 2
      })
    })
    .map(({ key, ...headers }): Record<string, string> => (key === null ? headers : { ...headers, "idempotency-key": key }))
  return fc
    .record({
      path: fc.tuple(pathArb, queryArb).map(([path, query]) => `${path}${query}`),
      role: fc.constantFrom<Role>("anonymous", "moderator", "admin", "super_admin"),
      raw: bodyArb,
      headers: headerArb
    })
    .map((request) => ({ ...request, method: operation.method }))
}

/**
 * What a refused write must leave as it was: each table's rows and versions, the activity log.
 * The log's sign-in events are bookkeeping like the rate limits: a refused code or confirmation is
 * recorded on purpose (`session.verify_failed`, `session.confirm_failed`, and `session.codes_tried`
 * when an e-mail's codes are being tried: server/auth/sign-in.ts, confirm.ts), so they are left out
 * of the count. The mail outbox is counted by the mails ever queued (its sequence): the worker
 * deletes a sent one whenever it is sent, which is no request's doing.
 */
const fingerprintSql = (tables: ReadonlyArray<{ name: string; versioned: boolean }>) =>
  tables
    .map(({ name, versioned }) =>
      name === "mail_outbox"
        ? `SELECT 'mail_outbox' AS name, last_value::text AS rows, '' AS versions FROM mail_outbox_id_seq`
        : `SELECT '${name}' AS name, count(*)::text AS rows, ${versioned ? "coalesce(sum(version), 0)::text" : "''"} AS versions FROM ${name}` +
          (name === "activity_log" ? " WHERE action NOT IN ('session.verify_failed', 'session.confirm_failed', 'session.codes_tried')" : "")
    )
    .join(" UNION ALL ")

/**
 * The sign-in bookkeeping a refused request may still move (attempts are counted on purpose; a
 * passkey's challenge is taken by the answer that tries it, refused or not), and the log's kept counts per actor, which move with its `session.verify_failed` events (the
 * log itself is still compared, without those).
 */
const bookkeeping = new Set([
  "idempotency_keys",
  "sign_in_codes",
  "sign_in_attempts",
  "known_browsers",
  "passkey_challenges",
  "confirm_codes",
  "sign_in_steps",
  "sessions",
  "rate_limits",
  "migrations",
  "schema_migrations",
  "activity_actor_counts"
])

export interface FuzzTotals {
  readonly requests: number
  readonly statuses: Record<string, number>
  readonly serverErrors: ReadonlyArray<{ readonly request: FuzzRequest; readonly status: number; readonly text: string; readonly after: string }>
  readonly leakedWrites: ReadonlyArray<{ readonly request: FuzzRequest; readonly status: number; readonly changed: ReadonlyArray<string> }>
}

/** Sends `count` generated requests at `server`, one at a time, and tallies what came back. */
export const fuzzServer = async (server: TestServer, count: number, seed: number): Promise<FuzzTotals> => {
  const spec = new Spec((await call(server.url, "GET", "/api/openapi.json")).body as ConstructorParameters<typeof Spec>[0])
  const tokens: Record<Role, string | undefined> = {
    anonymous: undefined,
    moderator: await signedInAs(server, "moderator"),
    admin: await signedInAs(server, "admin"),
    super_admin: await signedInAs(server, "super_admin")
  }
  const tables = (
    await server.sql(
      Effect.flatMap(
        SqlClient,
        (sql) => sql<{ name: string; versioned: boolean }>`
    SELECT t.table_name AS name, EXISTS (SELECT 1 FROM information_schema.columns c
      WHERE c.table_schema = 'public' AND c.table_name = t.table_name AND c.column_name = 'version') AS versioned
    FROM information_schema.tables t WHERE t.table_schema = 'public' AND t.table_type = 'BASE TABLE' ORDER BY 1`
      )
    )
  ).filter((table) => !bookkeeping.has(table.name))
  const fingerprint = async () => {
    const rows = await server.sql(Effect.flatMap(SqlClient, (sql) => sql.unsafe<{ name: string; rows: string; versions: string }>(fingerprintSql(tables))))
    return new Map(rows.map((row) => [row.name, `${row.rows}/${row.versions}`]))
  }
  // Some real records, so generated ids sometimes hit one.
  const known: Array<string> = []
  for (const kind of ["generated", "cex", "core-team"]) {
    const answer = await call(server.url, "POST", `/api/admin/addresses/${kind}`, {
      token: tokens.admin,
      body: { identifier: `fuzz-${kind}-${randomUUID()}`, Name: "Fuzz", name: "Fuzz" }
    })
    const id = (answer.body.data as { _id?: string } | undefined)?._id
    if (id !== undefined) known.push(id)
  }
  const operations = spec.operations()
  const arbitrary = fc.constantFrom(...operations).chain((operation) => requestFor(spec, operation, () => known))
  // Drawn 500 at a time, each batch from its own seed: drawing 10,000 at once took longer than
  // the server keeps an idle connection (5 s), and the next request met a closing socket. Batches
  // also see the ids made by the batches before.
  const BATCH = 500
  const samples = (function* () {
    for (let drawn = 0; drawn < count; drawn += BATCH) yield* fc.sample(arbitrary, { numRuns: Math.min(BATCH, count - drawn), seed: seed + drawn })
  })()
  let requests = 0
  const statuses: Record<string, number> = {}
  const serverErrors: Array<FuzzTotals["serverErrors"][number]> = []
  const leakedWrites: Array<FuzzTotals["leakedWrites"][number]> = []
  let previous = ""
  for (const request of samples) {
    requests += 1
    const isWrite = request.method !== "GET"
    const before = isWrite ? await fingerprint() : undefined
    const headers: Record<string, string> = { ...request.headers }
    const token = tokens[request.role]
    if (token !== undefined) headers.authorization = `Bearer ${token}`
    let status: number
    let text: string
    try {
      const response = await fetch(`${server.url}${request.path}`, { method: request.method, headers, body: request.raw })
      status = response.status
      // The change stream never ends on its own: its first events are the answer.
      if ((response.headers.get("content-type") ?? "").startsWith("text/event-stream")) {
        const reader = response.body!.getReader()
        text = new TextDecoder().decode((await reader.read()).value)
        await reader.cancel()
      } else text = await response.text()
    } catch (error) {
      status = 599
      text = `${String(error)}: ${String((error as { cause?: unknown }).cause)}`
    }
    statuses[String(status)] = (statuses[String(status)] ?? 0) + 1
    // A generated logout ends that role's session: sign in again, or the rest would all be 401s.
    if (request.path.startsWith("/api/admin/auth/logout") && request.role !== "anonymous" && status === 200) {
      tokens[request.role] = await signedInAs(server, request.role)
    }
    // A connection that failed (599) may be the doing of the request before, on the same socket.
    if (status >= 500) serverErrors.push({ request: { ...request, raw: request.raw?.slice(0, 300) }, status, text: text.slice(0, 300), after: previous })
    previous = `${request.role} ${request.method} ${request.path.slice(0, 120)} ${JSON.stringify(request.headers)} ${request.raw?.slice(0, 120) ?? ""} → ${status}`
    if (status === 200 && request.method === "POST") {
      try {
        const id = JSON.parse(text) as { data?: { _id?: string }; post?: { _id?: string } }
        const created = id.data?._id ?? id.post?._id
        if (created !== undefined) known.push(created)
      } catch {
        // not JSON: nothing to remember
      }
    }
    if (isWrite && before !== undefined && status >= 400) {
      const after = await fingerprint()
      const changed = [...after].filter(([name, print]) => before.get(name) !== print).map(([name]) => name)
      if (changed.length > 0) leakedWrites.push({ request: { ...request, raw: request.raw?.slice(0, 300) }, status, changed })
    }
  }
  return { requests, statuses, serverErrors, leakedWrites }
}
