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

export const issueWords: SchemaIssue.LeafHook = (issue) => {
  switch (issue._tag) {
    case "MissingKey":
      return "is required"
    case "UnexpectedKey":
      return "is not a field here"
    case "InvalidType":
      return issue.ast.annotations?.message === undefined ? (kinds[issue.ast._tag] ?? SchemaIssue.defaultLeafHook(issue)) : SchemaIssue.defaultLeafHook(issue)
    default:
      return SchemaIssue.defaultLeafHook(issue)
  }
}
