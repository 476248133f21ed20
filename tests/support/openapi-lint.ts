import { createConfig, lintFromString } from "@redocly/openapi-core"
import spectralCore from "@stoplight/spectral-core"
import spectralParsers from "@stoplight/spectral-parsers"
import spectralRulesets from "@stoplight/spectral-rulesets"
import owasp from "@stoplight/spectral-owasp-ruleset"

/**
 * The two outside linters `npm test` runs over `/api/openapi.json` (docs/api.md, "Limits"):
 * Redocly's recommended rules and Spectral's OpenAPI rules with the OWASP API security ruleset.
 * A rule we disagree with is switched off here, each with its reason; a rule we apply more
 * narrowly is replaced by our own version, defined below.
 */

export interface LintProblem {
  readonly linter: "redocly" | "spectral"
  readonly rule: string
  readonly severity: string
  readonly where: string
  readonly message: string
}

export const redoclyProblems = async (document: string): Promise<ReadonlyArray<LintProblem>> => {
  const config = await createConfig({ extends: ["recommended"] })
  const problems = await lintFromString({ source: document, absoluteRef: "openapi.json", config })
  return problems.map((problem) => ({
    linter: "redocly",
    rule: problem.ruleId,
    severity: problem.severity,
    where: problem.location[0]?.pointer ?? "",
    message: problem.message
  }))
}

/** OWASP rules switched off, and why. */
export const spectralSwitchedOff: Record<string, string> = {
  "owasp:api4:2023-rate-limit":
    "Only sign-in is rate limited, and its 429 carries Retry-After and retryAfterSeconds; rate-limit headers on every " +
    "answer would advertise limits that do not exist for signed-in staff.",
  "owasp:api4:2023-string-limit":
    "Applied to what arrives (request bodies and parameters) by request-string-limit below: answers only hold what " +
    "was accepted within those bounds, and the rule is about resource exhaustion by input.",
  "owasp:api4:2023-array-limit": "Applied to what arrives by request-array-limit below, as for strings.",
  "owasp:api5:2023-admin-security-unique": "There is one kind of token and only staff hold one: the admin paths and the upload path necessarily share it.",
  "owasp:api2:2023-write-restricted": "The one write without a token is sign-in itself (POST /api/admin/auth)."
}

type Node = Record<string, unknown>

/** Every schema under `node` (properties, items, anyOf…), with its path. */
const schemasIn = function* (node: unknown, path: ReadonlyArray<string | number>): Generator<readonly [Node, ReadonlyArray<string | number>]> {
  if (typeof node !== "object" || node === null) return
  const schema = node as Node
  yield [schema, path]
  for (const key of ["properties", "patternProperties"] as const) {
    const children = schema[key]
    if (typeof children === "object" && children !== null) {
      for (const [name, child] of Object.entries(children)) yield* schemasIn(child, [...path, key, name])
    }
  }
  if (schema.items !== undefined) yield* schemasIn(schema.items, [...path, "items"])
  for (const key of ["anyOf", "oneOf", "allOf"] as const) {
    const list = schema[key]
    if (Array.isArray(list)) for (const [i, child] of list.entries()) yield* schemasIn(child, [...path, key, i])
  }
}

const inputLimit = (kind: "string" | "array") => (input: unknown, _options: unknown, context: { path: ReadonlyArray<string | number> }) => {
  const problems: Array<{ message: string; path: Array<string | number> }> = []
  for (const [schema, path] of schemasIn(input, context.path)) {
    // A file part (format binary) is bounded by the upload limit (413), not by a length.
    if (schema.type !== kind || schema.format === "binary") continue
    const bounded =
      kind === "string" ? schema.maxLength !== undefined || schema.enum !== undefined || schema.const !== undefined : schema.maxItems !== undefined
    if (!bounded) {
      problems.push({
        message: kind === "string" ? "An input string must specify maxLength, enum or const." : "An input array must specify maxItems.",
        path: [...path]
      })
    }
  }
  return problems
}

const inputs = ["$.paths[*][*].requestBody.content[*].schema", "$.paths[*][*].parameters[*].schema"]

const ruleset = {
  extends: [
    [spectralRulesets.oas, "recommended"],
    [owasp, "recommended"]
  ],
  rules: {
    ...Object.fromEntries(Object.keys(spectralSwitchedOff).map((rule) => [rule, "off"])),
    "request-string-limit": {
      description: "Strings that arrive are bounded (OWASP API4:2023, applied to input).",
      severity: "error",
      given: inputs,
      then: { function: inputLimit("string") }
    },
    "request-array-limit": {
      description: "Arrays that arrive are bounded (OWASP API4:2023, applied to input).",
      severity: "error",
      given: inputs,
      then: { function: inputLimit("array") }
    }
  }
}

export const spectralProblems = async (document: string): Promise<ReadonlyArray<LintProblem>> => {
  const spectral = new spectralCore.Spectral()
  spectral.setRuleset(ruleset as never)
  const results = await spectral.run(new spectralCore.Document(document, spectralParsers.Json, "openapi.json"))
  const names = ["error", "warn", "info", "hint"]
  return results.map((result) => ({
    linter: "spectral",
    rule: String(result.code),
    severity: names[result.severity] ?? String(result.severity),
    where: result.path.join("."),
    message: result.message
  }))
}
