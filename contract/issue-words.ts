import { SchemaIssue } from "effect"

/**
 * The words for problems the contract's own checks do not word themselves: a missing field, a
 * value of the wrong kind. Said as the contract's messages are ("is required", "must be a
 * number"), so the console can put the field's label in front of any of them ("Employees must be
 * a number", docs/architecture.md "Forms"). The server's 400 answers and the console's forms both
 * use them: a refusal reads the same wherever it is found.
 */
const kinds: Readonly<Record<string, string>> = {
  String: "must be text",
  Number: "must be a number",
  Boolean: "must be yes or no",
  Arrays: "must be a list",
  Objects: "must be a group of fields"
}

/** A check that asks for a whole number (effect's `isInt`, inside `Schema.Int`). */
const asksWholeNumber = (annotations: { readonly representation?: unknown } | undefined): boolean =>
  typeof annotations?.representation === "object" &&
  annotations.representation !== null &&
  (annotations.representation as { readonly id?: unknown }).id === "effect/schema/isInt"

export const issueWords: SchemaIssue.LeafHook = (issue) => {
  switch (issue._tag) {
    case "MissingKey":
      return "is required"
    case "UnexpectedKey":
      return "is not a field here"
    case "InvalidType":
      if (issue.ast.annotations?.message !== undefined) return SchemaIssue.defaultLeafHook(issue)
      // "abc" where a whole number goes: the same words as for 12.5.
      if (issue.ast.checks?.some((check) => asksWholeNumber(check.annotations)) === true) return "must be a whole number"
      return kinds[issue.ast._tag] ?? SchemaIssue.defaultLeafHook(issue)
    default:
      return SchemaIssue.defaultLeafHook(issue)
  }
}

/**
 * The words for a failed check the contract did not word itself ("Expected an integer"): said as
 * the contract's own are, "must be a whole number", else "must be" what the check expects.
 */
export const checkWords: SchemaIssue.CheckHook = (issue) => {
  const own = SchemaIssue.defaultCheckHook(issue)
  if (own !== undefined) return own
  if (asksWholeNumber(issue.filter.annotations)) return "must be a whole number"
  const expected = issue.filter.annotations?.expected
  return typeof expected === "string" ? `must be ${expected}` : undefined
}
