import { useMemo } from "react"
import type { ConsoleStore } from "./console-store.ts"
import { useStore } from "./handle.ts"

/** An open record as the browser's store has it now: what a dialog shows, and what happened to it since it opened. */
export interface OpenRecord<Row> {
  /** The newest copy, this browser's waiting commands on top; the record as opened until the store is open, and once it has gone. */
  readonly shown: Row
  /** Someone else deleted it since it opened. */
  readonly gone: boolean
  /**
   * The server holds a version past the one opened and this browser's commands then waiting:
   * someone else changed it, and a save of what was opened would be refused (409).
   */
  readonly changed: boolean
}

/**
 * The version a save of the record as opened names: the one it was read at, past this browser's
 * commands about it then waiting (an edit made offline, a key pressed before the form): they reach
 * the server first, each making a version (docs/architecture.md, "Forms"). Worked out as it opens
 * and kept, so a colleague's change since is refused rather than overwritten.
 */
export const openedVersion = (store: ConsoleStore | undefined, kind: string, opened: { readonly _id: string; readonly version: number }): number =>
  store?.nextVersion(kind, opened._id, opened.version) ?? opened.version

/** `openedVersion` of a form's record, once per opening (and once more when the store opens); 0 with no record. */
export const useExpectedVersion = (kind: string, opened: { readonly _id: string; readonly version: number } | null): number => {
  const store = useStore()
  const open = store !== undefined
  return useMemo(
    () => (opened === null ? 0 : openedVersion(store, kind, opened)),
    // Counted once per opening, and once more when the store opens.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [kind, opened, open]
  )
}

/**
 * A record a dialog holds open, following the browser's store (docs/architecture.md, "The
 * browser's store"): a colleague's change shows in the open dialog as in the list behind it.
 * `kind` is the stream's area (a list's `spec.store`). `saving`: the form's own save, sent
 * straight to the server, is on its way: the stream may bring its version before its answer
 * comes, so a newer version is not said to be someone else's until the save has answered (a
 * colleague's change then refuses it, 409, and the form says so).
 */
export const useOpenRecord = <Row extends { readonly _id: string; readonly version: number } | null>(
  kind: string,
  opened: Row,
  saving = false
): OpenRecord<Row> => {
  const store = useStore()
  const expected = useExpectedVersion(kind, opened)
  if (store === undefined || opened === null) return { shown: opened, gone: false, changed: false }
  const viewed = store.view(kind, opened._id, opened)
  const held = store.held(kind, opened._id)?.version
  return {
    shown: viewed ?? opened,
    gone: viewed === null && !store.waiting(kind, opened._id),
    changed: !saving && typeof held === "number" && held > expected
  }
}
