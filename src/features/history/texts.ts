import { fetchFailed } from "../../lib/failure-words.ts"

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
  confirmTitle: (version: number) => `Restore version ${version}?`,
  confirmText: "The record becomes a new version with this content. These fields will change:",
  willChange: "What the restore will change",
  cancel: "Cancel",
  confirm: "Restore",
  restoredAs: (from: number, as: number) => `Version ${from} is restored as version ${as}.`,
  retry: "Try again",
  hint: "j/k or the arrows choose a version · r restores it · Escape closes"
} as const

/** The deleted records' dialog's words. */
export const removedCopy = {
  title: (kind: string) => `Deleted: ${kind.toLowerCase()}s`,
  loading: "Loading deleted records...",
  failed: fetchFailed("the deleted records"),
  none: (kind: string) => `No ${kind.toLowerCase()} was deleted.`,
  removedBy: (who: string, when: string) => `Deleted by ${who}, ${when}`,
  nobody: "the site",
  hint: "j/k choose · Enter opens its history, where it can be restored · Escape closes",
  close: "Close"
} as const
