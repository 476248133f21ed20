import { type Schema, SchemaIssue } from "effect"
import type { FieldIssue } from "../../contract/common.ts"
import { checkWords, issueWords } from "../../contract/issue-words.ts"

/** Worded as the console's forms word them (contract/issue-words.ts), so a 400 lands under a field as is. */
const formatter = SchemaIssue.makeFormatterStandardSchemaV1({ leafHook: issueWords, checkHook: checkWords })

const segment = (part: PropertyKey | { readonly key: PropertyKey }): string => String(typeof part === "object" ? part.key : part)

/** An answer names at most this many problems, then how many there were (docs/api.md, "Limits"). */
export const MAX_ANSWERED_ISSUES = 10

/** How many problems an issue tree holds: each leaf, or each failed check or encoding, counts one. */
const countIssues = (issue: SchemaIssue.Issue): number => {
  switch (issue._tag) {
    case "Pointer":
      return countIssues(issue.issue)
    case "Composite":
      return issue.issues.reduce((sum, child) => sum + countIssues(child), 0)
    default:
      return 1
  }
}

/**
 * The tree cut down to its first `budget.left` problems, in order, or undefined when none is
 * left: formatting 500,000 bad items of one array would cost far more than the request did.
 */
const firstIssues = (issue: SchemaIssue.Issue, budget: { left: number }): SchemaIssue.Issue | undefined => {
  if (budget.left <= 0) return undefined
  switch (issue._tag) {
    case "Pointer": {
      const inner = firstIssues(issue.issue, budget)
      return inner === undefined ? undefined : new SchemaIssue.Pointer(issue.path, inner)
    }
    case "Composite": {
      const kept: Array<SchemaIssue.Issue> = []
      for (const child of issue.issues) {
        const cut = firstIssues(child, budget)
        if (cut === undefined) break
        kept.push(cut)
      }
      const [first, ...rest] = kept
      return first === undefined ? undefined : new SchemaIssue.Composite(issue.ast, [first, ...rest])
    }
    default:
      budget.left -= 1
      return issue
  }
}

/** A schema failure as one `{ path, message }` per offending value: the first `max`, and how many in all. */
export const fieldIssues = (error: Schema.SchemaError, max = MAX_ANSWERED_ISSUES): { readonly shown: ReadonlyArray<FieldIssue>; readonly total: number } => {
  const total = countIssues(error.issue)
  const cut = firstIssues(error.issue, { left: max })
  const shown =
    cut === undefined
      ? []
      : formatter(cut).issues.map((issue) => ({
          path: (issue.path ?? []).map(segment).join("."),
          message: issue.message
        }))
  return { shown: shown.slice(0, max), total: Math.max(total, shown.length) }
}

/** One readable sentence naming each field: "email: must be a valid e-mail address"; "and 12 more" past those shown. */
export const describeIssues = (issues: ReadonlyArray<FieldIssue>, total = issues.length): string => {
  const named = issues.map((issue) => (issue.path === "" ? issue.message : `${issue.path}: ${issue.message}`)).join("; ")
  return total > issues.length ? `${named}; and ${total - issues.length} more` : named
}
