import type { FieldChange } from "../../../contract/history.ts"
import { changedPaths } from "../../../contract/history-rules.ts"
import type { VersionContent } from "../../../machines/history.ts"
import { isInstant, localTime } from "../../lib/dates.ts"
import { historyCopy } from "./texts.ts"

/**
 * How the history dialog reads a change (docs/architecture.md, "Record history"): a field's name
 * as a person says it, a value as they would read it on its screen.
 */

/** Documents whose keys are the record's own fields (a listing's details, the settings): their keys are named alone. */
const fieldBags = new Set(["details", "document"])

const words = (name: string) =>
  name
    .replace(/([A-Z])/gu, " $1")
    .replace(/_/gu, " ")
    .trim()
    .toLowerCase()

/** `seoTitle` → "Seo title", `author.username` → "Author username", `details.website` → "Website". */
export const fieldLabel = (field: string): string => {
  const path = field.split(".")
  const named = path.length > 1 && fieldBags.has(path[0] ?? "") ? path.slice(1) : path
  const label = named.map(words).join(" ")
  return label.charAt(0).toUpperCase() + label.slice(1)
}

/** A value as one line of text: times in the viewer's time zone, flags as yes or no, lists joined, documents as JSON. */
export const valueText = (value: unknown): string => {
  if (value === null || value === undefined) return ""
  if (isInstant(value)) return localTime(value)
  if (typeof value === "string") return value
  if (typeof value === "boolean") return value ? historyCopy.yes : historyCopy.no
  if (typeof value === "number") return String(value)
  if (Array.isArray(value) && value.every((item) => typeof item !== "object" || item === null)) return value.map(valueText).join(", ")
  return JSON.stringify(value)
}

/** The fields that differ between two versions' contents, a document's keys each as a field. */
export const changesBetween = (older: VersionContent, newer: VersionContent): ReadonlyArray<FieldChange> =>
  [...new Set([...Object.keys(older.content), ...Object.keys(newer.content)])]
    .sort()
    .flatMap((field) => changedPaths(field, older.content[field], newer.content[field]).map((change) => ({ ...change, hidden: false })))
