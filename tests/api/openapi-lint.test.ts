import { beforeAll, describe, expect, it } from "vitest"
import { engines } from "../support/database.ts"
import { call } from "../support/http.ts"
import { redoclyProblems, spectralProblems } from "../support/openapi-lint.ts"
import { serverWithStaff } from "../support/session.ts"

/** The served API description passes Redocly (recommended) and Spectral (OAS + OWASP) with no errors. */
describe("the OpenAPI document, checked by outside linters", () => {
  const staff = serverWithStaff(engines[0]!)
  let document: string
  beforeAll(async () => {
    document = (await call(staff.server.url, "GET", "/api/openapi.json")).text
  })

  const errorsOf = (problems: ReadonlyArray<{ severity: string; rule: string; where: string; message: string }>) =>
    problems.filter((problem) => problem.severity === "error").map((problem) => `${problem.rule} at ${problem.where}: ${problem.message}`)

  it("has no Redocly errors: every operation has a summary, servers are declared, no two paths are the same", async () => {
    const problems = await redoclyProblems(document)
    expect(errorsOf(problems)).toEqual([])
    expect(problems.length).toBeLessThan(20)
  })

  it("has no Spectral errors with the OWASP ruleset: every input bounded, every integer formatted", async () => {
    expect(errorsOf(await spectralProblems(document))).toEqual([])
  })

  it("catches what it is meant to catch: an unbounded input string and an unformatted integer", async () => {
    const spec = JSON.parse(document) as {
      paths: Record<string, Record<string, { requestBody?: { content: Record<string, { schema: { properties: Record<string, unknown> } }> } }>>
    }
    const body = spec.paths["/api/blog/admin/posts"]!.post!.requestBody!.content["application/json"]!.schema
    body.properties.title = { type: "string" }
    body.properties.views = { type: "integer" }
    const rules = errorsOf(await spectralProblems(JSON.stringify(spec))).map((line) => line.split(" at ")[0])
    expect(rules).toEqual(expect.arrayContaining(["request-string-limit", "owasp:api4:2023-integer-format"]))
  })
})
