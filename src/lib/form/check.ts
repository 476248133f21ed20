import { Schema } from "effect"
import type { FieldIssue } from "../../../contract/common.ts"
import { checkWords, issueWords } from "../../../contract/issue-words.ts"

/** What a form's values came to against the contract: the value to send, or the problems by field. */
export type Checked<A> = { readonly ok: true; readonly value: A } | { readonly ok: false; readonly issues: ReadonlyArray<FieldIssue> }

type Checkable = Schema.Decoder<unknown>
const standards = new WeakMap<Checkable, ReturnType<typeof Schema.toStandardSchemaV1<Checkable>>>()

/**
 * Checks what a form would send against the contract's schema, the one the server decodes the
 * request with, through its Standard Schema face. One message per field, the first: a value that
 * fails two checks of one field (too long and not a year) is told once.
 *
 * This module brings effect with it: forms load it on their first check (src/lib/form/use-contract-form.ts).
 */
export const check = <A>(schema: Schema.Decoder<A>, payload: unknown): Checked<A> => {
  let standard = standards.get(schema)
  if (standard === undefined) {
    standard = Schema.toStandardSchemaV1(schema, { leafHook: issueWords, checkHook: checkWords })
    standards.set(schema, standard)
  }
  const result = standard["~standard"].validate(payload)
  // The contract's schemas have no asynchronous checks; a promise here is a programming error.
  if (result instanceof Promise) throw new TypeError("A form's schema must check synchronously")
  if (result.issues === undefined) return { ok: true, value: result.value as A }
  const issues: Array<FieldIssue> = []
  for (const issue of result.issues) {
    const path = (issue.path ?? []).map((part) => String(typeof part === "object" ? part.key : part)).join(".")
    if (!issues.some((known) => known.path === path)) issues.push({ path, message: issue.message })
  }
  return { ok: false, issues }
}
