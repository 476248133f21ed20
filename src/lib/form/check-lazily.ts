import type { Schema } from "effect"
import type { FieldIssue } from "../../../contract/common.ts"
import type { Checked } from "./check.ts"

/**
 * Checks a payload against a contract schema that is loaded when first needed, with the checker
 * (and effect) it brings: the form pattern's check for forms that must show before effect has
 * loaded (the sign-in form) and for forms whose values a machine holds (docs/architecture.md, "Forms").
 */
export const checkLazily = async <A>(schema: () => Promise<Schema.Decoder<A>>, payload: unknown): Promise<Checked<A>> => {
  const [loaded, { check }] = await Promise.all([schema(), import("./check.ts")])
  return check(loaded, payload)
}

/** The message of the first issue at `path`, if any. */
export const issueAt = (issues: ReadonlyArray<FieldIssue>, path: string): string | undefined => issues.find((issue) => issue.path === path)?.message
