import { Arbitrary, Effect, Schema } from "effect"
import fc from "fast-check"
import { readdirSync } from "node:fs"
import { describe, expect, it } from "vitest"
import * as activity from "../../contract/activity.ts"
import * as advertising from "../../contract/advertising.ts"
import * as blogApi from "../../contract/blog-api.ts"
import * as history from "../../contract/history.ts"
import * as idempotency from "../../contract/idempotency.ts"
import * as stream from "../../contract/stream.ts"
import { DeskAnswers } from "../../contract/triage.ts"
import * as uploads from "../../contract/uploads.ts"
import * as addresses from "../../contract/addresses.ts"
import * as adminUsers from "../../contract/admin-users.ts"
import * as allowedIps from "../../contract/allowed-ips.ts"
import * as auth from "../../contract/auth.ts"
import * as blog from "../../contract/blog.ts"
import * as common from "../../contract/common.ts"
import * as contacts from "../../contract/contacts.ts"
import * as events from "../../contract/events.ts"
import * as listings from "../../contract/listings.ts"
import * as lists from "../../contract/lists.ts"
import * as protectedData from "../../contract/protected-data.ts"
import * as scamReports from "../../contract/scam-reports.ts"
import * as sessions from "../../contract/sessions.ts"
import * as passkeys from "../../contract/passkeys.ts"
import * as confirm from "../../contract/confirm.ts"
import * as siteSettings from "../../contract/site-settings.ts"
import * as system from "../../contract/system.ts"
import * as ventures from "../../contract/ventures.ts"
import * as triage from "../../contract/triage.ts"
import { fieldIssues } from "../../server/platform/issues.ts"

const modules = {
  activity,
  addresses,
  advertising,
  adminUsers,
  allowedIps,
  auth,
  blog,
  blogApi,
  common,
  contacts,
  events,
  history,
  idempotency,
  listings,
  lists,
  protectedData,
  scamReports,
  sessions,
  passkeys,
  confirm,
  siteSettings,
  stream,
  system,
  uploads,
  ventures,
  triage
}

/** Every schema the contract exports, by name. */
const schemas = Object.entries(modules).flatMap(([module, exports]) =>
  Object.entries(exports)
    .filter(([, value]) => Schema.isSchema(value))
    .map(([name, value]) => [`${module}.${name}`, value as Schema.Codec<unknown, unknown>] as const)
)

/**
 * A key that is one escaped character in JSON (`"\n"`, `"\ud800"`). V8's JSON.parse (Node 24 and 26)
 * reads such a key as a backslash once the process has parsed a backslash key at the same place in an
 * object before (docs/testing.md, "Seeds, and a defect of the runtime"). The contract has no such key.
 */
const ONE_ESCAPED_CHARACTER_KEY = /[{,]"\\(?:u[0-9a-fA-F]{4}|["\\/bfnrt])":/

/** JSON has no negative zero; a -0 that comes back as 0 is the wire's doing, not the schema's. */
const withoutNegativeZero = (value: unknown): unknown => {
  if (Object.is(value, -0)) return 0
  if (Array.isArray(value)) return value.map(withoutNegativeZero)
  if (typeof value === "object" && value !== null) {
    return Object.assign(
      Object.create(Object.getPrototypeOf(value) as object) as object,
      Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withoutNegativeZero(v)]))
    )
  }
  return value
}

describe("contract schemas", () => {
  it("round-trips every module of the contract that exports a schema", async () => {
    const listed = new Set(Object.values(modules))
    const missing: Array<string> = []
    for (const file of readdirSync(new URL("../../contract/", import.meta.url)).filter((name) => name.endsWith(".ts"))) {
      const module = (await import(`../../contract/${file}`)) as Record<string, unknown>
      const hasSchema = Object.values(module).some((value) => Schema.isSchema(value))
      if (hasSchema && ![...listed].some((known) => Object.keys(module).every((name) => (known as Record<string, unknown>)[name] === module[name])))
        missing.push(file)
    }
    expect(missing).toEqual([])
  })

  it("covers every entity of the spec", () => {
    const names = schemas.map(([name]) => name)
    for (const entity of [
      "addresses.GeneratedAddress",
      "addresses.CexAddress",
      "addresses.CoreTeamAddress",
      "blog.BlogPost",
      "blog.BlogCategory",
      "blog.TagList",
      "listings.Listing",
      "ventures.Business",
      "ventures.Startup",
      "ventures.Project",
      "events.EventEntry",
      "contacts.CoreTeamContact",
      "advertising.AdvertisingInquiry",
      "scamReports.ScamReport",
      "scamReports.ScamReportList",
      "allowedIps.AllowedIp",
      "activity.ActivityEntry",
      "activity.DashboardStats",
      "activity.Analytics",
      "adminUsers.AdminAccount",
      "sessions.AdminSession",
      "passkeys.Passkey",
      "passkeys.RegistrationCredential",
      "protectedData.ProtectedRecord",
      "siteSettings.SiteSettings",
      "auth.AdminUser",
      "auth.AuthRequest",
      "auth.OtpRequested",
      "auth.SignedIn",
      "auth.SessionCheck"
    ])
      expect(names).toContain(entity)
  })

  it.each(schemas)("%s decodes what it encodes, through JSON", async (_name, schema) => {
    const json = Schema.toCodecJson(schema)
    const encode = Schema.encodeUnknownSync(json)
    const decode = Schema.decodeUnknownSync(json)
    const arbitrary = Arbitrary.schema(schema)
    await fc.assert(
      fc.asyncProperty(fc.integer(), async (seed) => {
        const [value] = await Effect.runPromise(Arbitrary.sampleEffect(arbitrary, { count: 1, seed, size: 8 }))
        const text = JSON.stringify(encode(value))
        fc.pre(!ONE_ESCAPED_CHARACTER_KEY.test(text))
        const wire = JSON.parse(text)
        const decoded = decode(wire)
        const expected = withoutNegativeZero(value)
        if (decoded instanceof Error) {
          // vitest compares errors' fields in order; a class's optional fields come back in the schema's.
          expect(Object.getPrototypeOf(decoded)).toBe(Object.getPrototypeOf(expected))
          expect({ ...decoded }).toEqual({ ...(expected as object) })
        } else {
          expect(decoded).toEqual(expected)
        }
      }),
      { numRuns: 25 }
    )
  })

  it("says an empty e-mail or record id is missing, not malformed", () => {
    const email = Schema.decodeUnknownExit(auth.AuthRequest)({ email: "" }, { errors: "all" })
    expect(String(email)).toContain("is required")
    const duplicate = Schema.decodeUnknownExit(DeskAnswers.duplicate)({ duplicateOf: "" }, { errors: "all" })
    expect(String(duplicate)).toContain("is required")
    expect(String(Schema.decodeUnknownExit(DeskAnswers.duplicate)({ duplicateOf: "abc" }))).toContain("must be a record id")
  })

  it("refuses a bad value with a message naming the field", () => {
    const result = Schema.decodeUnknownExit(auth.AuthRequest)({ email: "not-an-email", otp: "12ab" }, { errors: "all" })
    expect(result._tag).toBe("Failure")
    expect(String(result)).toContain("must be a valid e-mail address")
    expect(String(result)).toContain("must be 6 digits")
  })
})

describe("the words of a refusal", () => {
  const words = (schema: Schema.Decoder<unknown>, value: unknown) => {
    const result = Schema.decodeUnknownExit(schema)(value, { errors: "all" })
    if (result._tag === "Success") return []
    const failure = result.cause.reasons.find((reason) => reason._tag === "Fail")
    return failure?._tag === "Fail" && Schema.isSchemaError(failure.error)
      ? fieldIssues(failure.error).shown.map((issue) => `${issue.path}: ${issue.message}`)
      : []
  }

  it("says a whole number is wanted, for 12.5 and for letters alike, as a field's label can lead", () => {
    const hours = Schema.Struct({ hours: Schema.Int })
    expect(words(hours, { hours: 12.5 })).toEqual(["hours: must be a whole number"])
    expect(words(hours, { hours: "abc" })).toEqual(["hours: must be a whole number"])
    expect(words(hours, { hours: true })).toEqual(["hours: must be a whole number"])
    expect(words(Schema.Struct({ n: Schema.Number }), { n: "abc" })).toEqual(["n: must be a number"])
  })

  it("words a check the contract left unworded as what it expects, never Expected …", () => {
    expect(words(Schema.Struct({ n: Schema.Number.check(Schema.isGreaterThan(3)) }), { n: 1 })).toEqual(["n: must be a value greater than 3"])
  })

  it("says an emptied date is missing and a bad one is no date, in label words", () => {
    expect(words(Schema.Struct({ at: common.Timestamp }), { at: "" })[0]).toBe("at: is required")
    expect(words(Schema.Struct({ at: common.Timestamp }), { at: "tomorrow" })).toEqual(["at: must be a date and time (ISO 8601)"])
  })
})
