import { useSelector } from "@xstate/react"
import { useEffect, useRef } from "react"
import { fromPromise } from "xstate"
import { historyMachine, historyOpen, type PairInput } from "../../../machines/history.ts"
import { loadHistory, loadVersion, restoreVersion } from "../../api/history.ts"
import type { HistoryTarget } from "../../lib/history.ts"
import { useMachine } from "../../lib/use-machine.ts"
import HistoryDialog from "./HistoryDialog.tsx"

/** Two versions of a record, loaded side by side. */
const loadPair = (input: PairInput) =>
  Promise.all([loadVersion(input.record.kind, input.record.id, input.versions[0]), loadVersion(input.record.kind, input.record.id, input.versions[1])])

/** One ask to show a record's history; `serial` tells a second ask for the same record from the first. */
export interface HistoryRequest {
  readonly target: HistoryTarget
  readonly serial: number
}

/**
 * The history machine (machines/history.ts) with the API's calls, and its dialog: loaded the
 * first time a history is asked for, so the first screen carries neither (docs/architecture.md,
 * "Record history"). It opens each request and tells the host whether the dialog is open.
 */
export default function HistoryRunner({
  request,
  onOpen,
  recordChanged
}: {
  readonly request: HistoryRequest
  readonly onOpen: (open: boolean) => void
  readonly recordChanged: () => void
}) {
  const actor = useMachine(() =>
    historyMachine.provide({
      actors: {
        loadHistory: fromPromise(({ input }) => loadHistory(input.kind, input.id)),
        compare: fromPromise(({ input }) => loadPair(input)),
        prepare: fromPromise(({ input }) => loadPair(input)),
        restore: fromPromise(({ input }) => restoreVersion(input.record.kind, input.record.id, input.version, input.expectedVersion))
      },
      actions: { recordChanged }
    })
  )
  const open = useSelector(actor, historyOpen)
  useEffect(() => actor.send({ type: "OPEN", record: request.target }), [actor, request])
  // The host counts the dialog open from the ask; it hears when it closes.
  const wasOpen = useRef(false)
  useEffect(() => {
    if (open === wasOpen.current) return
    wasOpen.current = open
    onOpen(open)
  }, [open, onOpen])
  return <HistoryDialog actor={actor} />
}
