import { Context } from "effect"
import { HttpApi } from "effect/http-api"
import { describe, expect, it } from "vitest"
import { AdminApi } from "../../contract/api.ts"
import { KeptAnswer } from "../../contract/idempotency.ts"

/** The fields whose value is a secret: a session's token, recovery codes, a ceremony's challenge, a protected value. */
const SECRET_FIELDS = new Set(["token", "codes", "challenge", "value"])

/** Every property name a schema's AST holds, however deep (a walk over its nodes, each once). */
const fieldNames = (ast: unknown, seen = new Set<unknown>()): ReadonlySet<string> => {
  const names = new Set<string>()
  const walk = (node: unknown) => {
    if (typeof node !== "object" || node === null || seen.has(node)) return
    seen.add(node)
    const signatures = (node as { propertySignatures?: ReadonlyArray<{ readonly name: PropertyKey }> }).propertySignatures
    for (const signature of signatures ?? []) if (typeof signature.name === "string") names.add(signature.name)
    for (const value of Object.values(node)) walk(value)
  }
  walk(ast)
  return names
}

/**
 * Commands, exactly once (docs/api.md): an answer holding a secret is never kept for a repeat. Which
 * ones do is declared on the endpoint (`KeptAnswer`); this finds every write whose success answer
 * has a secret's field, so a new one that forgets to say so fails here.
 */
describe("the answers a repeat may get again", () => {
  it("declares every write whose answer holds a secret, and no other", () => {
    const declared: Array<string> = []
    const holding: Array<string> = []
    HttpApi.reflect(AdminApi, {
      onGroup: () => undefined,
      onEndpoint: ({ endpoint, successes }) => {
        if (endpoint.method === "GET" || endpoint.method === "HEAD") return
        const name = `${endpoint.method} ${endpoint.path}`
        if (Context.get(endpoint.annotations, KeptAnswer) !== "answer") declared.push(name)
        const fields = [...successes.values()].flat().flatMap((schema) => [...fieldNames(schema.ast)])
        if (fields.some((field) => SECRET_FIELDS.has(field))) holding.push(name)
      }
    })
    expect(holding.length).toBeGreaterThan(0)
    for (const name of holding) expect(declared, name).toContain(name)
    expect(declared.sort()).toMatchInlineSnapshot(`
      [
        "POST /api/admin/auth",
        "POST /api/admin/auth/confirm/code",
        "POST /api/admin/auth/confirm/code/verify",
        "POST /api/admin/auth/confirm/options",
        "POST /api/admin/auth/confirm/passkey",
        "POST /api/admin/auth/logout",
        "POST /api/admin/auth/passkeys",
        "POST /api/admin/auth/passkeys/options",
        "POST /api/admin/auth/passkeys/recovery-codes",
        "POST /api/admin/auth/passkeys/sign-in",
        "POST /api/admin/auth/passkeys/sign-in/options",
        "POST /api/admin/auth/revoke",
        "POST /api/admin/auth/second-step/options",
        "POST /api/admin/auth/second-step/passkey",
        "POST /api/admin/auth/second-step/recovery",
        "POST /api/admin/protected-data",
        "PUT /api/admin/protected-data/:id",
      ]
    `)
  })
})
