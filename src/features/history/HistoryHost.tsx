import { lazy, type ReactNode, Suspense, useEffect, useMemo, useState } from "react"
import type { HistoryKind } from "../../../contract/history-rules.ts"
import { type Command, useLegalCommands, useRegisterCommands } from "../../lib/commands.tsx"
import "./history.css"
import { HistoryContext, type HistoryOpener, type HistoryTarget } from "../../lib/history.ts"
import { useStableCallback } from "../../lib/use-stable.ts"
import { currentStore } from "../../lib/store/handle.ts"
import type { HistoryRequest } from "./HistoryRunner.tsx"
import type { UndoNotice } from "./UndoLast.tsx"
import { patiently } from "../../ui/deferred.tsx"

const UNDO_ID = "history:undo"
/** How long an undo's confirmation stays; a refusal stays until dismissed. */
const UNDO_NOTICE_MS = 8_000

const undoCommand = "Undo my last change"

/** The machine and the dialog arrive the first time a history is opened: the first screen does not carry them. */
const HistoryRunner = lazy(() => patiently(() => import("./HistoryRunner.tsx")))
const RemovedDialog = lazy(() => patiently(() => import("./RemovedDialog.tsx")))
const UndoNoticeView = lazy(() => patiently(() => import("./UndoLast.tsx").then((module) => ({ default: module.UndoNoticeView }))))

/**
 * The one history dialog of the signed-in console (docs/architecture.md, "Record history"): it
 * holds the history machine (machines/history.ts) with the API's three calls, and gives every
 * screen `useHistory` (src/lib/history.ts) to open a record's history; a restore moves
 * `changes`, so the screen showing the record reads it again.
 */
export const HistoryHost = ({ children }: { readonly children: ReactNode }) => {
  const [changes, setChanges] = useState(0)
  const recordChanged = useStableCallback(() => setChanges((count) => count + 1))
  const [request, setRequest] = useState<HistoryRequest | null>(null)
  const [open, setOpen] = useState(false)
  const show = useStableCallback((target: HistoryTarget) => {
    // Open at once for the keys: the dialog takes them from the moment it is asked for.
    setOpen(true)
    setRequest((last) => ({ target, serial: (last?.serial ?? 0) + 1 }))
  })
  const [removedOf, setRemovedOf] = useState<HistoryKind | null>(null)
  const showRemoved = useStableCallback((kind: HistoryKind) => setRemovedOf(kind))
  const anyOpen = open || removedOf !== null
  const opener = useMemo((): HistoryOpener => ({ show, showRemoved, open: anyOpen, changes }), [show, showRemoved, anyOpen, changes])

  // `z` anywhere: the person's last change of a record is undone by restoring the version
  // before it, at the version it made; if someone changed the record since, it says who and
  // offers the history. A screen's own undo (a listing's status, for 10 s) goes first.
  const [notice, setNotice] = useState<UndoNotice | null>(null)
  // The undo's code and its notice arrive with the first undo (./UndoLast.tsx).
  // The person's last change may still be on its way: it reaches the server first.
  const undoLast = useStableCallback(async () => {
    await currentStore()?.settled()
    setNotice(await (await import("./UndoLast.tsx")).undoLast(recordChanged))
  })
  const legal = useLegalCommands()
  const screenUndo = legal.some((command) => command.id !== UNDO_ID && command.shortcut?.length === 1 && command.shortcut[0] === "z")
  const commands = useMemo(
    (): ReadonlyArray<Command> => [
      {
        id: UNDO_ID,
        label: undoCommand,
        group: "History",
        shortcut: ["z"],
        keywords: ["undo", "revert"],
        guard: () => !open && !screenUndo,
        run: () => void undoLast()
      }
    ],
    [open, screenUndo, undoLast]
  )
  useRegisterCommands(commands)
  useEffect(() => {
    if (notice === null || notice.refused === true) return
    const timer = setTimeout(() => setNotice(null), UNDO_NOTICE_MS)
    return () => clearTimeout(timer)
  }, [notice])

  return (
    <HistoryContext.Provider value={opener}>
      {children}
      {notice !== null && (
        <Suspense fallback={null}>
          <UndoNoticeView notice={notice} show={show} dismiss={() => setNotice(null)} />
        </Suspense>
      )}
      {request !== null && (
        <Suspense fallback={null}>
          <HistoryRunner request={request} onOpen={setOpen} recordChanged={recordChanged} />
        </Suspense>
      )}
      {removedOf !== null && (
        <Suspense fallback={null}>
          <RemovedDialog
            kind={removedOf}
            onClose={() => setRemovedOf(null)}
            onRestored={recordChanged}
            onChoose={(target) => {
              setRemovedOf(null)
              show(target)
            }}
          />
        </Suspense>
      )}
    </HistoryContext.Provider>
  )
}
