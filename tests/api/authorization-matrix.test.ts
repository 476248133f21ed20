import { Arbitrary, Effect, Schema, SchemaAST } from "effect"
import { randomUUID } from "node:crypto"
import { beforeAll, describe, expect, it } from "vitest"
import { AdminApi } from "../../contract/api.ts"
import type { Role } from "../../contract/common.ts"
import { engines } from "../support/database.ts"
import { type Answer, call, freshIp } from "../support/http.ts"
import { serverWithStaff, signedInAs } from "../support/session.ts"

/**
 * Who may call each endpoint of the contract (docs/security.md, "Roles"; docs/api.md, each area's
 * section), asked of the running server for the public and every role: a request without a token
 * is a 401 wherever a sign-in is needed, a role the rule leaves out is a 403, and a role it lets
 * in gets past the door (400, 404, 409 or 200: what the payload makes of it is other tests'
 * business). Every endpoint of `AdminApi` must have a rule here: one added to the contract without
 * one fails this file by name.
 */

/**
 * - `public`: no token needed; a staff token is welcome too.
 * - `publicOrEditor`: no token needed; a request with a token is staff's, for admins and super admins only.
 * - `signedIn`: any role (moderator, admin, super admin).
 * - `editor`: admins and super admins; a moderator's is 403.
 * - `superAdmin`: super admins only; an admin's or a moderator's is 403.
 */
type Door = "public" | "publicOrEditor" | "signedIn" | "editor" | "superAdmin"

const rules: Record<string, Door> = {
  // docs/api.md, "Health and metrics": open to anyone; /metrics to this host (or METRICS_TOKEN).
  "system.health": "public",
  "system.live": "public",
  "system.ready": "public",
  "system.metrics": "public",

  // docs/security.md, "Sign-in" and "Sessions": signing in needs no token; the session's own calls do.
  "auth.signIn": "public",
  "auth.check": "signedIn",
  "auth.logout": "signedIn",
  // docs/api.md, "Sign-out": a sign-out sent later by the token's hash needs no token (a 204 for any hash).
  "auth.revoke": "public",

  // docs/security.md, "Roles": every role reads addresses; creating, editing and deleting is an admin's.
  "generatedAddresses.list": "signedIn",
  "generatedAddresses.create": "editor",
  "generatedAddresses.update": "editor",
  "generatedAddresses.remove": "editor",
  "cexAddresses.list": "signedIn",
  "cexAddresses.create": "editor",
  "cexAddresses.update": "editor",
  "cexAddresses.remove": "editor",
  "coreTeamAddresses.list": "signedIn",
  "coreTeamAddresses.create": "editor",
  "coreTeamAddresses.update": "editor",
  "coreTeamAddresses.remove": "editor",
  "addressSearch.find": "signedIn",

  // docs/api.md, "Public reads": the blog's reads are the public's too (its CSV needs a token:
  // "CSV export"; the request here asks for JSON).
  "blog.posts": "public",
  "blog.post": "public",
  "blog.categories": "public",
  "blog.tags": "public",
  // docs/security.md, "Roles": posts and their categories are content.
  "blogAdmin.create": "editor",
  "blogAdmin.update": "editor",
  "blogAdmin.remove": "editor",
  "blogAdmin.createCategory": "editor",

  // docs/security.md, "Roles": an upload is content (every role reads them).
  "uploads.image": "editor",

  // docs/api.md, "Listings": moderators change statuses and notes; only admins create, edit and delete.
  "communities.combined": "signedIn",
  "communities.create": "editor",
  "communities.update": "editor",
  "communities.remove": "editor",
  "communities.setStatus": "signedIn",
  "influencers.combined": "signedIn",
  "influencers.create": "editor",
  "influencers.update": "editor",
  "influencers.remove": "editor",
  "influencers.setStatus": "signedIn",
  "listingsAdmin.list": "signedIn",
  "listingsAdmin.moderate": "signedIn",
  "listingsAdmin.remove": "editor",
  // docs/security.md, "Roles": undoing one's own status change, every role.
  "listingsAdmin.undo": "signedIn",
  "listingsAdmin.bulk": "signedIn",
  // docs/api.md, "Listings" and "Public forms": the public site lists and submits without a token.
  "listingsPublic.list": "public",
  "listingsPublic.submit": "public",
  "listingsPublicAdmin.update": "editor",
  "listingsPublicAdmin.remove": "editor",
  // docs/api.md, "Listings": `PUT …/{id}/active` shows or hides one, and moderators may.
  "businesses.list": "signedIn",
  "businesses.create": "editor",
  "businesses.update": "editor",
  "businesses.setActive": "signedIn",
  "businesses.remove": "editor",
  "startups.list": "signedIn",
  "startups.create": "editor",
  "startups.update": "editor",
  "startups.setActive": "signedIn",
  "startups.remove": "editor",
  "projects.list": "signedIn",
  "projects.create": "editor",
  "projects.update": "editor",
  "projects.setActive": "signedIn",
  "projects.remove": "editor",
  "ventureModeration.list": "signedIn",
  "ventureModeration.setStatus": "signedIn",
  "venturesPublic.businesses": "public",
  "venturesPublic.startups": "public",
  "venturesPublic.projects": "public",
  "venturesPublic.submitBusiness": "public",
  "venturesPublic.submitStartup": "public",
  "venturesPublic.submitProject": "public",

  // Events and hackathons are listings (docs/api.md, "Listings"); featuring one is a moderator's
  // too (docs/api.md, "Record history": "a listing's status, notes, visibility or feature").
  "events.list": "signedIn",
  "events.create": "editor",
  "events.update": "editor",
  "events.setFeatured": "signedIn",
  "events.remove": "editor",

  // docs/api.md, "Scam reports": the public form; moderators triage; deleting is for admins.
  "scamReports.report": "public",
  "scamReports.list": "signedIn",
  "scamReports.one": "signedIn",
  "scamReports.related": "signedIn",
  "scamReports.change": "signedIn",
  "scamReports.remove": "editor",

  // docs/api.md, "Live changes": for signed-in staff, each reading the areas their role may read.
  "stream.changes": "signedIn",

  // docs/api.md, "Core-team contacts and advertising inquiries".
  "contacts.list": "signedIn",
  // Without a token the public's form; with one an admin's (a moderator's is 403).
  "contacts.create": "publicOrEditor",
  "contacts.one": "signedIn",
  // Moderators may change the handling only (403 for what it says and who sent it): a contact
  // that does not exist is a 404 to every role first.
  "contacts.update": "signedIn",
  "contacts.remove": "editor",
  "advertising.submit": "public",
  "advertising.list": "signedIn",
  "advertising.one": "signedIn",
  // docs/security.md, "Roles": status and notes are every role's.
  "advertising.update": "signedIn",
  "advertising.adminList": "signedIn",
  "advertising.adminStatus": "signedIn",

  // docs/api.md, "Analytics" and "Activity log": every role, each log within the reader's rights.
  "analytics.get": "signedIn",
  "activity.list": "signedIn",

  // docs/api.md, "Admin management" and "Allowed addresses"; docs/security.md, "Roles".
  "adminUsers.list": "superAdmin",
  "adminUsers.create": "superAdmin",
  "adminUsers.update": "superAdmin",
  "adminUsers.remove": "superAdmin",
  "allowedIps.list": "superAdmin",
  "allowedIps.create": "superAdmin",
  "allowedIps.remove": "superAdmin",
  // One's own sessions, every role; `scope=all` (below) and ending another's are a super admin's.
  // Ending a session that does not exist is a 404 to every role first.
  "sessions.list": "signedIn",
  "sessions.end": "signedIn",
  "sessions.endOthers": "signedIn",

  // docs/api.md, "Passkeys": one's own passkeys, every role alike; the rules and resets are a super admin's.
  "passkeys.list": "signedIn",
  "passkeys.rename": "signedIn",
  "passkeys.recoveryCodes": "signedIn",
  "passkeys.rules": "superAdmin",
  "passkeys.setRule": "superAdmin",
  "passkeys.reset": "superAdmin",
  "passkeys.registrationOptions": "signedIn",
  "passkeys.register": "signedIn",
  "passkeys.remove": "signedIn",
  // Signing in with a passkey, and a code sign-in's second step: no token.
  "passkeySignIn.options": "public",
  "passkeySignIn.signIn": "public",
  "passkeySignIn.stepOptions": "public",
  "passkeySignIn.stepPasskey": "public",
  "passkeySignIn.stepRecovery": "public",

  // docs/api.md, "The triage desk": every role reads the desk and assigns, snoozes and closes duplicates.
  "triage.desk": "signedIn",
  "triage.owners": "signedIn",
  "triage.change": "signedIn",

  // docs/security.md, "Confirm what matters": each person confirms it's them, every role.
  "confirm.status": "signedIn",
  "confirm.options": "signedIn",
  "confirm.passkey": "signedIn",
  "confirm.sendCode": "signedIn",
  "confirm.verifyCode": "signedIn",

  // docs/api.md, "Admin management": protected data is a super admin's; the site's settings are
  // read by every admin and changed by super admins.
  "protectedData.list": "superAdmin",
  "protectedData.create": "superAdmin",
  "protectedData.update": "superAdmin",
  "protectedData.remove": "superAdmin",
  "siteSettings.get": "signedIn",
  "siteSettings.update": "superAdmin",

  // docs/api.md, "Record history": whoever may read a kind's records reads its history (asked
  // here of listings; the super admins' kinds below). A restore below the kind's editors is an
  // undo of one's own last change, so a record that does not exist is a 404 to every role first.
  "history.removed": "signedIn",
  "history.last": "signedIn",
  "history.list": "signedIn",
  "history.version": "signedIn",
  "history.restore": "signedIn"
}

/** How an endpoint is asked, where the generated request would not show its door. */
interface Ask {
  readonly params?: Record<string, string>
  readonly query?: Record<string, string>
  /** The body sent instead of the generated one (`undefined`: none). */
  readonly body?: unknown
  /** Each role calls with a token of its own, signed in for this call: the call ends or changes sessions. */
  readonly freshToken?: true
  /** From this host (no forwarded address), as the metrics endpoint asks. */
  readonly local?: true
  /** A server-sent event stream: only its status is read. */
  readonly stream?: true
}

const asks: Record<string, Ask> = {
  // Answered only to this host (or with METRICS_TOKEN): its 403 elsewhere is no role's.
  "system.metrics": { local: true },
  // A wrong code, passkey or step is a 401 by design (docs/security.md, "Sign-in", "Passkeys"):
  // a body that is no attempt at all shows the door (400) without trying one.
  "auth.signIn": { body: {} },
  "passkeySignIn.signIn": { body: {} },
  "passkeySignIn.stepOptions": { body: {} },
  "passkeySignIn.stepPasskey": { body: {} },
  "passkeySignIn.stepRecovery": { body: {} },
  "confirm.passkey": { body: {} },
  "confirm.verifyCode": { body: {} },
  // Signing out ends the caller's session, and ending the others ends the caller's other ones.
  "auth.logout": { freshToken: true },
  "sessions.endOthers": { freshToken: true },
  "stream.changes": { stream: true },
  // An address that does not cover the caller's: the super admin's answer is the 409 that keeps
  // them in (docs/api.md, "Allowed addresses"), and the list stays empty for the other calls.
  "allowedIps.create": { body: { ip: "203.0.113.7", description: "Authorization matrix" } },
  // A rule that requires nothing, so no sign-in of this file needs a passkey.
  "passkeys.setRule": { params: { role: "moderator" }, body: { required: false, graceDays: 0 } },
  // History of a kind every role reads.
  "history.removed": { params: { kind: "listing" } },
  "history.list": { params: { kind: "listing" } },
  "history.version": { params: { kind: "listing" } },
  "history.restore": { params: { kind: "listing" } }
}

/** A part of an endpoint whose door is not its minimal request's, and how it is asked. */
interface Part {
  readonly endpoint: string
  readonly what: string
  readonly door: Door
  readonly ask: Ask
}

const parts: ReadonlyArray<Part> = [
  // docs/api.md, "Admin management": `scope=all` is for super admins.
  { endpoint: "sessions.list", what: "everyone's sessions", door: "superAdmin", ask: { query: { scope: "all" } } },
  // docs/api.md, "Record history": admin accounts, allowed addresses and protected data are read by super admins only.
  ...(["admin", "ip", "protected-data"] as const).flatMap((kind) =>
    (["history.removed", "history.list", "history.version", "history.restore"] as const).map((endpoint) => ({
      endpoint,
      what: `the history of kind ${kind}`,
      door: "superAdmin" as const,
      ask: { params: { kind } }
    }))
  )
]

type Caller = "anonymous" | Role
const callers: ReadonlyArray<Caller> = ["anonymous", "moderator", "admin", "super_admin"]

const admitted: Record<Door, ReadonlyArray<Caller>> = {
  public: callers,
  publicOrEditor: ["anonymous", "admin", "super_admin"],
  signedIn: ["moderator", "admin", "super_admin"],
  editor: ["admin", "super_admin"],
  superAdmin: ["super_admin"]
}

/** What `caller` must get from an endpoint behind `door`: past it, or the refusal. */
const expected = (door: Door, caller: Caller): "past the door" | 401 | 403 =>
  admitted[door].includes(caller) ? "past the door" : caller === "anonymous" ? 401 : 403

interface Endpoint {
  readonly name: string
  readonly method: string
  readonly path: string
  readonly params: Schema.Top | undefined
  readonly query: Schema.Top | undefined
  readonly payload: ReadonlyMap<string, { readonly encoding: { readonly _tag: string }; readonly schemas: ReadonlyArray<Schema.Top> }>
}

/** Every endpoint of the contract, `group.endpoint`, read from the API itself. */
const contractEndpoints: ReadonlyArray<Endpoint> = Object.entries(
  AdminApi.groups as unknown as Record<string, { readonly endpoints: Record<string, Omit<Endpoint, "name">> }>
).flatMap(([group, { endpoints }]) => Object.entries(endpoints).map(([name, endpoint]) => ({ ...endpoint, name: `${group}.${name}` })))

/**
 * Every list that takes `format`, asked for its CSV (docs/api.md, "CSV export"): the list's own
 * rule, every role alike ("Moderators may export"), but the blog's public list, whose CSV needs a
 * staff token.
 */
const exports = contractEndpoints.flatMap((endpoint): ReadonlyArray<Part> => {
  const door = rules[endpoint.name]
  const query = endpoint.query?.ast
  const takesFormat = query !== undefined && SchemaAST.isObjects(query) && query.propertySignatures.some((field) => field.name === "format")
  return door === undefined || !takesFormat
    ? []
    : [{ endpoint: endpoint.name, what: "as CSV", door: door === "public" ? "signedIn" : door, ask: { query: { format: "csv" } } }]
})

const decodes = (schema: Schema.Top, value: unknown) => Schema.decodeUnknownExit(schema as Schema.Codec<unknown, unknown>)(value)._tag === "Success"

/** One encoded value `schema` accepts, the same on every run, with no optional key it can do without. */
const sample = async (schema: Schema.Top): Promise<unknown> => {
  const codec = schema as Schema.Codec<unknown, unknown>
  const [value] = await Effect.runPromise(Arbitrary.sampleEffect(Arbitrary.schema(codec), { count: 1, seed: 20_261_122, size: 4 }))
  const encoded = Schema.encodeUnknownSync(codec)(value)
  if (typeof encoded !== "object" || encoded === null || Array.isArray(encoded)) return encoded
  const minimal: Record<string, unknown> = { ...(encoded as Record<string, unknown>) }
  for (const key of Object.keys(minimal)) {
    const { [key]: _left, ...without } = minimal
    if (decodes(schema, without)) delete minimal[key]
  }
  return minimal
}

/** Path parameters the schema accepts as a random UUID get one (records that do not exist). */
const withRandomIds = (schema: Schema.Top, params: Record<string, string>) =>
  Object.keys(params).reduce((current, key) => {
    const candidate = { ...current, [key]: randomUUID() }
    return decodes(schema, candidate) ? candidate : current
  }, params)

interface Request {
  readonly method: string
  readonly path: string
  readonly body: unknown
}

/**
 * The request that asks `endpoint` through its door: every part the schema wants, generated from
 * it (so a role's refusal in the handler is not hidden behind a 400), ids random, then `ask`'s own.
 */
const requestFor = async (endpoint: Endpoint, ask: Ask): Promise<Request> => {
  const params =
    endpoint.params === undefined ? {} : { ...withRandomIds(endpoint.params, (await sample(endpoint.params)) as Record<string, string>), ...ask.params }
  const query = { ...(endpoint.query === undefined ? {} : ((await sample(endpoint.query)) as Record<string, string | ReadonlyArray<string>>)), ...ask.query }
  const json = [...endpoint.payload.values()].find((payload) => payload.encoding._tag === "Json")
  const body = "body" in ask ? ask.body : json === undefined ? undefined : await sample(Schema.Union(json.schemas))
  const search = new URLSearchParams()
  for (const [key, value] of Object.entries(query)) for (const one of typeof value === "string" ? [value] : value) search.append(key, one)
  const path = endpoint.path.replace(/:([A-Za-z]+)/g, (_, name: string) => encodeURIComponent(params[name] ?? ""))
  return { method: endpoint.method, path: search.size === 0 ? path : `${path}?${search.toString()}`, body }
}

/** An event stream's status, its body left unread; the answer's text when it is no stream. */
const streamStatus = async (url: string, path: string, token: string | undefined, ip: string): Promise<Answer> => {
  const controller = new AbortController()
  const headers: Record<string, string> = { "x-forwarded-for": ip, ...(token === undefined ? {} : { authorization: `Bearer ${token}` }) }
  const response = await fetch(`${url}${path}`, { headers, signal: controller.signal })
  if (response.headers.get("content-type")?.startsWith("text/event-stream") === true) {
    controller.abort()
    return { status: response.status, headers: response.headers, body: {}, text: "(an event stream)" }
  }
  const text = await response.text()
  return { status: response.status, headers: response.headers, body: {}, text }
}

describe("the authorization matrix", () => {
  it("declares a rule for exactly the contract's endpoints", () => {
    const names = contractEndpoints.map((endpoint) => endpoint.name)
    expect([
      ...names.filter((name) => rules[name] === undefined).map((name) => `${name}: no rule declared`),
      ...Object.keys(rules)
        .filter((name) => !names.includes(name))
        .map((name) => `${name}: a rule for no endpoint of the contract`),
      ...[...Object.keys(asks), ...parts.map((part) => part.endpoint)]
        .filter((name) => !names.includes(name))
        .map((name) => `${name}: asked of, but no endpoint of the contract`)
    ]).toEqual([])
  })
})

describe.each(engines)("who may call each endpoint on $name", (engine) => {
  const staff = serverWithStaff(engine)
  const tokens = {} as Record<Role, string>
  beforeAll(async () => {
    tokens.moderator = staff.moderator
    tokens.admin = staff.admin
    tokens.super_admin = await signedInAs(staff.server, "super_admin")
  })

  /** Each caller's answer to `request`, the four at once, each from an address of its own. */
  const answers = async (request: Request, ask: Ask) =>
    Promise.all(
      callers.map(async (caller) => {
        const token = caller === "anonymous" ? undefined : ask.freshToken === true ? await signedInAs(staff.server, caller) : tokens[caller]
        const ip = freshIp()
        const answer =
          ask.stream === true
            ? await streamStatus(staff.server.url, request.path, token, ip)
            : await call(staff.server.url, request.method, request.path, {
                ...(token === undefined ? {} : { token }),
                ...(request.body === undefined ? {} : { body: request.body }),
                ...(ask.local === true ? {} : { ip })
              })
        return { caller, answer }
      })
    )

  /** Each caller's answer against the door, as lines naming what differs (none when all hold). */
  const misfits = (name: string, door: Door, request: Request, got: ReadonlyArray<{ caller: Caller; answer: Answer }>) =>
    got.flatMap(({ caller, answer }) => {
      const want = expected(door, caller)
      const holds = want === "past the door" ? answer.status !== 401 && answer.status !== 403 : answer.status === want
      return holds
        ? []
        : [`${name} (${door}) ${request.method} ${request.path} as ${caller}: expected ${want}, got ${answer.status} ${answer.text.slice(0, 200)}`]
    })

  it.each(contractEndpoints.map((endpoint) => [endpoint.name, endpoint] as const))("%s", async (name, endpoint) => {
    const door = rules[name]
    if (door === undefined) throw new Error(`${name} has no rule in the authorization matrix`)
    const ask = asks[name] ?? {}
    const request = await requestFor(endpoint, ask)
    expect(misfits(name, door, request, await answers(request, ask))).toEqual([])
  })

  it.each([...parts, ...exports].map((part) => [`${part.endpoint}, ${part.what}`, part] as const))("%s", async (_title, part) => {
    const endpoint = contractEndpoints.find((one) => one.name === part.endpoint)
    if (endpoint === undefined) throw new Error(`${part.endpoint} is not in the contract`)
    const ask = { ...asks[part.endpoint], ...part.ask, params: { ...asks[part.endpoint]?.params, ...part.ask.params } }
    const request = await requestFor(endpoint, ask)
    expect(misfits(part.endpoint, part.door, request, await answers(request, ask))).toEqual([])
  })
})
