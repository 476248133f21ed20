import fc from "fast-check"
import { describe, expect, it } from "vitest"
import type { FieldSpec } from "../../src/features/listings/kinds.ts"
import { queueKinds } from "../../src/features/listings/kinds.ts"
import { payloadOf } from "../../src/features/listings/QueueForm.tsx"
import { check } from "../../src/lib/form/check.ts"
import { ownerOf } from "../../src/lib/form/use-contract-form.ts"
import { engines } from "../support/database.ts"
import { call } from "../support/http.ts"
import { serverWithStaff } from "../support/session.ts"

/**
 * The one form pattern's promise (docs/architecture.md, "Forms"), for the seven listing forms
 * against the real server: what a form lets through, the server stores; what it refuses, it
 * refuses under one of its own fields, and the server refuses the same payload naming the same
 * fields. Values are what people type: empty, over-long, emoji, HTML, negative, too large,
 * "12abc", `javascript:` addresses.
 */
const createPath: Readonly<Record<keyof typeof queueKinds, string>> = {
  community: "/api/admin/communities",
  influencer: "/api/admin/influencers",
  business: "/api/admin/businesses",
  startup: "/api/admin/startups",
  project: "/api/admin/projects",
  event: "/api/ecosystem?type=events",
  hackathon: "/api/ecosystem?type=hackathons"
}

/** What people type wrong: empty, over-long, emoji, HTML, negative, too large, "12abc", `javascript:`. */
const wrong = fc.oneof(
  fc.constantFrom("", " ", "12abc", "99999", "-5", "1e3", "🙂 Pi émoji", "<b>bold</b><script>x</script>", "javascript:alert(1)", "http://", "99999999999"),
  fc.string({ maxLength: 20 }),
  fc.constant("x".repeat(10_000))
)

/** What a field takes, so that many forms are whole and get stored. */
const right: Readonly<Record<FieldSpec["kind"], ReadonlyArray<string>>> = {
  text: ["Pi Network", "Lisbon café"],
  textarea: ["A community about Pi, with emoji 🙂"],
  url: ["https://ok.example/page", ""],
  year: ["2021", ""],
  number: ["42", "0", ""],
  datetime: ["2026-12-20T10:00", ""],
  list: [],
  select: [],
  image: ["https://img.example/a.png", ""]
}

const valueFor = (field: FieldSpec): fc.Arbitrary<string | ReadonlyArray<string>> => {
  switch (field.kind) {
    case "list":
      return fc.array(fc.oneof(fc.constantFrom("Ana", "TypeScript"), fc.constantFrom("", "y".repeat(300))), { maxLength: 3 })
    case "select":
      return fc.constantFrom(...(field.options ?? [""]))
    case "image":
      return fc.oneof(
        { arbitrary: fc.constantFrom(...right.image), weight: 4 },
        { arbitrary: fc.constantFrom("javascript:alert(1)", "not an address", "/uploads/x.png"), weight: 1 }
      )
    default:
      return fc.oneof({ arbitrary: fc.constantFrom(...right[field.kind]), weight: 6 }, { arbitrary: wrong, weight: 1 })
  }
}

const distinctPaths = (issues: ReadonlyArray<{ readonly path: string }>) => [...new Set(issues.map((issue) => issue.path))].sort()

describe.each(engines)("the listing forms against the server on $name", (engine) => {
  const staff = serverWithStaff(engine)

  it.each(Object.keys(createPath) as ReadonlyArray<keyof typeof queueKinds>)("%s: the form and the server agree on every payload", async (key) => {
    const kind = queueKinds[key]
    const schema = await kind.schema()
    const fields = new Map(kind.fields.map((field) => [field.name, field.label]))
    const values = fc.record(Object.fromEntries(kind.fields.map((field) => [field.name, valueFor(field)])))
    let accepted = 0
    let refused = 0
    await fc.assert(
      fc.asyncProperty(values, async (typedValues) => {
        const payload = payloadOf(kind.fields, typedValues)
        const checked = check(schema, payload)
        const answer = await call(staff.server.url, "POST", createPath[key], { token: staff.admin, body: payload })
        if (checked.ok) {
          accepted++
          expect(answer.status).toBe(200)
          return
        }
        refused++
        // Every problem the form finds shows under one of its fields, never only in the banner.
        expect(checked.issues.filter((issue) => ownerOf(fields, issue.path) === undefined)).toEqual([])
        // The server refuses the same payload, naming the same fields (it names ten at most).
        expect(answer.status).toBe(400)
        const named = (answer.body as { issues?: ReadonlyArray<{ path: string }> }).issues ?? []
        if (named.length < 10) expect(distinctPaths(named)).toEqual(distinctPaths(checked.issues))
      }),
      {
        numRuns: 40,
        seed: 20261124,
        reporter: (details) => {
          // The counterexample holds 10,000-character values: say which fields, not the whole form.
          if (details.failed) throw new Error(`${key}: ${String(details.errorInstance)} (seed ${details.seed}, path ${details.counterexamplePath ?? ""})`)
        }
      }
    )
    console.log(`${key}: ${accepted} accepted and stored, ${refused} refused under a field, of 40 typed forms`)
    expect(accepted).toBeGreaterThan(0)
    expect(refused).toBeGreaterThan(0)
  })
})
