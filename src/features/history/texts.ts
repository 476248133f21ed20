import { fetchFailed } from "../../lib/failure-words.ts"
import type { FormatChange } from "../../lib/rich-text-diff.ts"
import type { BlockKind, MarkKind } from "../../lib/rich-text.ts"

/** The history dialog's words (docs/architecture.md, "Record history"). */
export const historyCopy = {
  title: "History",
  titleOf: (kind: string, label: string) => `History of ${kind.toLowerCase()} “${label}”`,
  versions: "Versions, newest first",
  versionLabel: (version: number) => `Version ${version}`,
  current: "Current",
  nobody: "The site (no one signed in)",
  baseline: "As it was when history began",
  created: "Created",
  removed: "Deleted",
  restoredEntry: "Restored an earlier version",
  changed: (fields: ReadonlyArray<string>) =>
    fields.length <= 3 ? `Changed ${fields.join(", ")}` : `Changed ${fields.slice(0, 3).join(", ")} and ${fields.length - 3} more`,
  noChanges: "No field changed.",
  madeBy: (version: number, who: string, when: string) => `Version ${version}, by ${who}, ${when}.`,
  whatChanged: (version: number) => `What version ${version} changed`,
  field: "Field",
  change: "Change",
  hiddenValue: "Changed (protected values are not kept)",
  deletedWord: "deleted:",
  insertedWord: "inserted:",
  compareWith: "Compare with",
  chooseVersion: "Choose a version",
  comparing: (older: number, newer: number) => `From version ${older} to version ${newer}`,
  restore: "Restore this version",
  restoreBefore: (version: number) => `Restore version ${version}, before the deletion`,
  confirmTitle: (version: number) => `Restore version ${version}?`,
  confirmText: "The record becomes a new version with this content. These fields will change:",
  willChange: "What the restore will change",
  cancel: "Cancel",
  confirm: "Restore",
  restoredAs: (from: number, as: number) => `Version ${from} is restored as version ${as}.`,
  retry: "Try again",
  yes: "Yes",
  no: "No",
  unchangedBlocks: (count: number) => (count === 1 ? "1 unchanged block not shown" : `${count} unchanged blocks not shown`),
  hint: "j/k or the arrows choose a version · r restores it · Escape closes"
} as const

/** The deleted records' dialog's words. */
export const removedCopy = {
  title: (plural: string) => `Deleted ${plural.toLowerCase()}`,
  loading: "Loading deleted records...",
  failed: fetchFailed("the deleted records"),
  none: (kind: string) => `No ${kind.toLowerCase()} was deleted.`,
  removedBy: (who: string, when: string) => `Deleted by ${who}, ${when}`,
  nobody: "the site",
  restore: "Restore",
  restoring: "Restoring...",
  restored: (label: string, version: number) => `“${label}” is back, as version ${version}.`,
  restoreFailed: (label: string) => `Couldn't restore “${label}”`,
  hint: "j/k choose · r restores it · Enter opens its history · Escape closes",
  close: "Close"
} as const

/** A post body's blocks as the diff names them (src/lib/rich-text.ts). */
export const blockNames: Readonly<Record<BlockKind, string>> = {
  paragraph: "Paragraph",
  heading1: "Heading (level 1)",
  heading2: "Heading (level 2)",
  heading3: "Heading (level 3)",
  heading4: "Heading (level 4)",
  bulleted: "Bulleted list item",
  numbered: "Numbered list item",
  quote: "Quote",
  code: "Code block"
}

const alignments: Readonly<Record<string, string>> = {
  "": "now aligned left",
  left: "now aligned left",
  center: "now centred",
  right: "now aligned right",
  justify: "now justified"
}

const marksMade: Readonly<Record<Exclude<MarkKind, "link">, readonly [string, string]>> = {
  bold: ["made bold", "no longer bold"],
  italic: ["made italic", "no longer italic"],
  underline: ["underlined", "no longer underlined"],
  strike: ["struck through", "no longer struck through"],
  code: ["made code", "no longer code"]
}

const quoted = (text: string) => `“${text}”`

/** A formatting change in words: "made bold: “Pi”", "now a heading (level 2)", "link changed: “the guide” now goes to https://…". */
export const formattingText = (change: FormatChange): string => {
  switch (change.type) {
    case "block":
      return `now ${/^[AEIOU]/u.test(blockNames[change.to]) ? "an" : "a"} ${blockNames[change.to].toLowerCase()}`
    case "align":
      return alignments[change.to] ?? `now aligned ${change.to}`
    case "mark":
      return `${marksMade[change.mark][change.added ? 0 : 1]}: ${quoted(change.text)}`
    case "link":
      if (change.from === null) return `linked: ${quoted(change.text)} to ${change.to ?? ""}`
      if (change.to === null) return `link removed: ${quoted(change.text)}`
      return `link changed: ${quoted(change.text)} now goes to ${change.to}`
  }
}
