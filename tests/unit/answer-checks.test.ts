import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Arbitrary, Effect, Schema } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { checkedAnswer } from "../../src/api/checked-answer.ts"
import { endpointsByName, firstAnswerSchemas } from "../../src/api/first-answer-schemas.ts"
import { firstFailure, type JsonSchema, unknownKeywords } from "../../contract/json-check.ts"
import { firstAnswerJsonSchemas, firstEndpointPaths, firstEndpoints } from "../../tools/first-screen/answer-schemas.ts"
import { root } from "../support/process.ts"

// The first screen checks its prefetched answers with contract/json-check.ts against JSON Schema
// compiled from the contract (tools/first-screen/answer-schemas.ts) instead of loading effect. These tests
// hold that checker to the contract's own verdicts, on valid answers and on broken ones.

const jsonSchemas = await firstAnswerJsonSchemas(root)
const entries = Object.entries(firstAnswerSchemas).map(
  ([name, schema]) => [name, schema as unknown as Schema.Codec<unknown, unknown>, jsonSchemas[name]!] as const
)

const sample = async (schema: Schema.Codec<unknown, unknown>, seed: number) => {
  const [value] = await Effect.runPromise(Arbitrary.sampleEffect(Arbitrary.schema(schema), { count: 1, seed, size: 6 }))
  return JSON.parse(JSON.stringify(Schema.encodeUnknownSync(schema)(value))) as unknown
}

type Path = ReadonlyArray<string | number>
const pathsOf = (value: unknown, at: Path = []): ReadonlyArray<Path> => {
  if (Array.isArray(value)) return [at, ...value.flatMap((item, index) => pathsOf(item, [...at, index]))]
  if (typeof value === "object" && value !== null) return [at, ...Object.entries(value).flatMap(([key, item]) => pathsOf(item, [...at, key]))]
  return [at]
}

const replacements: ReadonlyArray<unknown> = [
  null,
  true,
  1.5,
  -1,
  0,
  3_000_000_000,
  "",
  " ",
  "x".repeat(65),
  "x".repeat(201),
  "x".repeat(5_001),
  "javascript:alert(1)",
  "2026-13-45",
  "not-an-email",
  [],
  {},
  "1"
]

/** `value` with the thing at `path` replaced (or, for an object's field, removed). */
const mutated = (value: unknown, path: Path, replacement: unknown, remove: boolean): unknown => {
  if (path.length === 0) return replacement
  const copy = structuredClone(value) as Record<string | number, unknown>
  let parent = copy
  for (const step of path.slice(0, -1)) parent = parent[step] as Record<string | number, unknown>
  const last = path[path.length - 1]!
  if (remove && !Array.isArray(parent)) delete parent[last]
  else parent[last] = replacement
  return copy
}

const contractAccepts = (schema: Schema.Codec<unknown, unknown>, value: unknown) => Schema.decodeUnknownExit(schema)(value)._tag === "Success"

describe("the first screen's answer checks", () => {
  it.each(entries)("%s: every keyword of its JSON Schema is one the checker judges", (_name, _schema, json) => {
    expect(unknownKeywords(json)).toEqual([])
    expect(JSON.stringify(json)).toContain('"type"')
  })

  it.each(entries)("%s: a valid answer passes, and its decoded value is its JSON", async (_name, schema, json) => {
    await fc.assert(
      fc.asyncProperty(fc.integer(), async (seed) => {
        const wire = await sample(schema, seed)
        expect(firstFailure(json, wire)).toBeUndefined()
        expect(Schema.decodeUnknownSync(schema)(wire)).toEqual(wire)
      }),
      { numRuns: 30 }
    )
  })

  it.each(entries)("%s: on a broken answer the checker and the contract agree", async (_name, schema, json) => {
    let refused = 0
    await fc.assert(
      fc.asyncProperty(fc.integer(), fc.nat(), fc.nat(replacements.length - 1), fc.boolean(), async (seed, pick, which, remove) => {
        const wire = await sample(schema, seed)
        const paths = pathsOf(wire)
        const broken = mutated(wire, paths[pick % paths.length]!, replacements[which], remove)
        const contract = contractAccepts(schema, broken)
        if (!contract) refused++
        expect({ broken, checker: firstFailure(json, broken) === undefined }).toEqual({ broken, checker: contract })
      }),
      { numRuns: 300 }
    )
    expect(refused).toBeGreaterThan(100)
  })

  it("names where an answer fails", () => {
    const schema: JsonSchema = jsonSchemas.generatedPage!
    expect(firstFailure(schema, { success: true, data: { addresses: [{}], pagination: { page: 1, limit: 20, total: 1, pages: 1 } } })).toBe(
      "data.addresses[0] lacks _id"
    )
    expect(firstFailure(schema, [])).toBe("the answer must be object")
  })
})

describe("checkedAnswer", () => {
  const answer = (body: unknown, status = 200) =>
    Promise.resolve(new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } }))
  const session = { success: true, user: { _id: "u1", email: "a@example.com", name: null, role: "admin", grantedRole: "admin" } }

  it("resolves with a valid answer", async () => {
    await expect(checkedAnswer(answer(session), jsonSchemas.sessionCheck!)).resolves.toEqual(session)
  })

  it("rejects a refused request with the server's words and status", async () => {
    await expect(checkedAnswer(answer({ success: false, error: "Session expired" }, 401), jsonSchemas.sessionCheck!)).rejects.toEqual({
      status: 401,
      message: "Session expired"
    })
    await expect(checkedAnswer(Promise.resolve(new Response("<html>", { status: 502 })), jsonSchemas.sessionCheck!)).rejects.toEqual({
      status: 502,
      message: "HTTP 502: request failed"
    })
  })

  it("rejects an answer the contract refuses, and a request that got no answer", async () => {
    await expect(checkedAnswer(answer({ ...session, user: { ...session.user, role: "owner" } }), jsonSchemas.sessionCheck!)).rejects.toEqual({
      status: undefined,
      message: "Unexpected answer from the server: user.role is not one of the allowed values"
    })
    await expect(checkedAnswer(Promise.reject(new TypeError("Failed to fetch")), jsonSchemas.sessionCheck!)).rejects.toEqual({
      status: undefined,
      message: "Failed to fetch"
    })
  })
})

describe("the paths the console asks without the client", () => {
  it("are the contract's own, looked up at build time", async () => {
    const paths = await firstEndpointPaths(root)
    expect(paths).toEqual({
      sessionCheck: "/api/admin/auth/check",
      logout: "/api/admin/auth/logout",
      revoke: "/api/admin/auth/revoke",
      generatedAddresses: "/api/admin/addresses/generated",
      cexAddresses: "/api/admin/addresses/cex",
      coreTeamAddresses: "/api/admin/addresses/core-team",
      posts: "/api/blog/posts",
      communities: "/api/admin/communities/combined",
      influencers: "/api/admin/influencers/combined",
      businesses: "/api/admin/businesses",
      startups: "/api/admin/startups",
      projects: "/api/admin/projects",
      events: "/api/ecosystem",
      contacts: "/api/core-team-contact",
      inquiries: "/api/advertising-inquiries",
      reports: "/api/report-scam",
      adminUsers: "/api/admin/users",
      activity: "/api/admin/activity-logs",
      stream: "/api/admin/stream",
      uploadImage: "/api/upload/image",
      listingModerate: "/api/admin/listings/:id",
      listingUndo: "/api/admin/listings/:id/undo",
      listingBulk: "/api/admin/listings/bulk",
      reportChange: "/api/report-scam/:id",
      triageChange: "/api/admin/triage/:area/:id",
      eventFeatured: "/api/ecosystem/:id/featured",
      businessActive: "/api/admin/businesses/:id/active",
      startupActive: "/api/admin/startups/:id/active",
      projectActive: "/api/admin/projects/:id/active",
      contactUpdate: "/api/core-team-contact/:id",
      inquiryUpdate: "/api/advertising-inquiries/:id"
    })
    expect(Object.keys(paths)).toEqual(Object.keys(endpointsByName))
    // A command names its method too: the contract's, never typed in src/.
    const endpoints = await firstEndpoints(root)
    expect([endpoints.sessionCheck?.method, endpoints.listingBulk?.method, endpoints.reportChange?.method, endpoints.contactUpdate?.method]).toEqual([
      "GET",
      "POST",
      "PATCH",
      "PUT"
    ])
  })

  it("stop the build when the contract has no such endpoint", async () => {
    const planted = mkdtempSync(join(tmpdir(), "paths-"))
    try {
      mkdirSync(join(planted, "src/api"), { recursive: true })
      mkdirSync(join(planted, "contract"))
      writeFileSync(
        join(planted, "contract/api.ts"),
        'export const AdminApi = { groups: { auth: { endpoints: { check: { path: "/api/admin/auth/check" } } } } }\n'
      )
      writeFileSync(join(planted, "src/api/first-answer-schemas.ts"), 'export const endpointsByName = { gone: "auth.vanished" }\n')
      await expect(firstEndpointPaths(planted)).rejects.toThrow("the contract has no endpoint auth.vanished")
    } finally {
      rmSync(planted, { recursive: true, force: true })
    }
  })
})
