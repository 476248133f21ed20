import { useState } from "react"
import { failureOf, saidWith } from "../../../contract/call-failure.ts"
import type { Asking } from "../../lib/list/use-list-screen.ts"
import { ConfirmDelete } from "../ConfirmDelete.tsx"

const ready = { busy: false, error: null } as const

/**
 * A row action's confirmation (its `confirm`): the question, the record's name, Cancel and the
 * action; busy while its call runs, both buttons waiting; closed (and the list read again) on
 * success; on a refusal it stays and says why, in the screen's words. On a list kept in the
 * browser's store the call is a command: the dialog closes and the row goes at once. Kept out of the first
 * screen's code: it loads when first asked (src/ui/list/ListScreen.tsx).
 */
export const RowConfirmation = <Row,>({
  asking,
  onClose,
  onDone
}: {
  readonly asking: Asking<Row> | null
  readonly onClose: () => void
  readonly onDone: () => void
}) => {
  const [state, setState] = useState<{ readonly busy: boolean; readonly error: string | null }>(ready)
  // The words of the last one asked stay while the dialog closes.
  const [shown, setShown] = useState(asking)
  if (asking !== null && asking !== shown) {
    setShown(asking)
    setState(ready)
  }
  if (shown === null) return null
  const { confirm } = shown
  const run = async () => {
    if (asking === null || state.busy) return
    if (asking.as !== undefined) {
      // A command: the row is gone at once; a refusal puts it back and the console says why (src/app/client/).
      confirm.run(asking.row, asking.as).catch(() => undefined)
      onDone()
      return
    }
    setState({ busy: true, error: null })
    try {
      await confirm.run(asking.row)
      setState(ready)
      onDone()
    } catch (error) {
      setState({ busy: false, error: saidWith(confirm.failed, failureOf(error)) })
    }
  }
  return (
    <ConfirmDelete
      state={asking === null ? null : { subject: confirm.subject(asking.row), ...state }}
      title={confirm.title}
      question={confirm.question}
      texts={confirm.texts}
      onClose={() => !state.busy && onClose()}
      onConfirm={() => void run()}
    />
  )
}
