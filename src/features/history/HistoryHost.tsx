import { Button, Callout, Flex } from "@radix-ui/themes"
import { lazy, type ReactNode, Suspense, useEffect, useMemo, useState } from "react"
import type { HistoryKind } from "../../../contract/history-rules.ts"
import { failureOf } from "../../../contract/call-failure.ts"
import { type Command, useLegalCommands, useRegisterCommands } from "../../lib/commands.tsx"
import { loadLastChange, restoreVersion } from "../../api/history.ts"
import "./history.css"
import { historyActionLabel, HistoryContext, type HistoryOpener, type HistoryTarget } from "../../lib/history.ts"
import { useStableCallback } from "../../lib/use-stable.ts"
import type { HistoryRequest } from "./HistoryRunner.tsx"

const UNDO_ID = "history:undo"
/** How long an undo's confirmation stays; a refusal stays until dismissed. */
const UNDO_NOTICE_MS = 8_000

const undoTexts = {
  command: "Undo my last change",
  nothing: "Nothing of yours to undo.",
  /** Which record, and what became of it: "Undone your change to listing "Pi Lagos": back as it was at version 1 (now version 3)." */
  undone: (kind: string, label: string, version: number, now: number) =>
    `Undone your change to ${kind.toLowerCase()} "${label}": back as it was at version ${version} (now version ${now}).`,
  failed: "Couldn't undo your last change",
  dismiss: "Dismiss"
} as const

interface UndoNotice {
  readonly text: string
  readonly target?: HistoryTarget
  readonly refused?: boolean
}

/** The machine and the dialog arrive the first time a history is opened: the first screen does not carry them. */
const HistoryRunner = lazy(() => import("./HistoryRunner.tsx"))
const RemovedDialog = lazy(() => import("./RemovedDialog.tsx"))

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
  const undoLast = useStableCallback(async () => {
    try {
      const last = await loadLastChange()
      if (last === null) return setNotice({ text: undoTexts.nothing })
      // The kinds' words arrive with the undo: the signed-in chunk, read before the first rows, does not carry them.
      const { historyKindLabels, historyMessages } = await import("../../../contract/history-rules.ts")
      const target = { kind: last.kind, id: last.id, label: historyKindLabels[last.kind] }
      if (last.version <= 1) return setNotice({ text: historyMessages.createdLast, target })
      try {
        const restored = await restoreVersion(last.kind, last.id, last.version - 1, last.version)
        recordChanged()
        setNotice({ text: undoTexts.undone(historyKindLabels[last.kind], last.label, last.version - 1, restored.version), target })
      } catch (error) {
        setNotice({ text: `${undoTexts.failed}: ${failureOf(error).message}`, target, refused: true })
      }
    } catch (error) {
      setNotice({ text: `${undoTexts.failed}: ${failureOf(error).message}` })
    }
  })
  const legal = useLegalCommands()
  const screenUndo = legal.some((command) => command.id !== UNDO_ID && command.shortcut?.length === 1 && command.shortcut[0] === "z")
  const commands = useMemo(
    (): ReadonlyArray<Command> => [
      {
        id: UNDO_ID,
        label: undoTexts.command,
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
        <div className="history-undo-notice">
          <Callout.Root color={notice.refused === true ? "red" : "gray"} role={notice.refused === true ? "alert" : "status"} size="1">
            <Callout.Text>{notice.text}</Callout.Text>
            <Flex gap="2" mt="1">
              {notice.target !== undefined && (
                <Button
                  size="1"
                  variant="soft"
                  onClick={() => {
                    if (notice.target !== undefined) show(notice.target)
                    setNotice(null)
                  }}
                >
                  {historyActionLabel}
                </Button>
              )}
              <Button size="1" variant="soft" color="gray" onClick={() => setNotice(null)}>
                {undoTexts.dismiss}
              </Button>
            </Flex>
          </Callout.Root>
        </div>
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
