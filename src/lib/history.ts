import { createContext, useContext } from "react"
import type { HistoryKind } from "../../contract/history-rules.ts"

/** What opens a record's history, as the palette, a list's row actions and the undo's notice name it. */
export const historyActionLabel = "Show history"

/** A record whose history can be shown: its kind, its id, and what the dialog calls it. */
export interface HistoryTarget {
  readonly kind: HistoryKind
  readonly id: string
  readonly label: string
}

/**
 * Opens a record's history from anywhere (`h` on a list's current row, the palette's "Show
 * history"): the signed-in shell hosts the one history dialog (src/features/history/) and
 * provides this; `open` is false while it shows, so a screen's keys wait.
 */
export interface HistoryOpener {
  readonly show: (target: HistoryTarget) => void
  /** Lists the records of a kind that were deleted; choosing one opens its history. */
  readonly showRemoved: (kind: HistoryKind) => void
  readonly open: boolean
  /** Moves each time a restore changed a record: a screen showing it reads its list again. */
  readonly changes: number
}

const closed: HistoryOpener = { show: () => undefined, showRemoved: () => undefined, open: false, changes: 0 }

export const HistoryContext = createContext<HistoryOpener>(closed)

export const useHistory = (): HistoryOpener => useContext(HistoryContext)
