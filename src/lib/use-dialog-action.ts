import { useCallback, useRef, useState } from "react"
import { failureOf } from "../../contract/call-failure.ts"

/** A dialog or form open on `target`: whether its action runs, and why it last failed. */
export interface DialogState<T> {
  readonly target: T
  readonly busy: boolean
  readonly error: string | null
}

/**
 * One dialog's (or inline form's) life, written once: open on a record, run its action (busy
 * while it runs, both buttons waiting), close on success and say why on failure, in the
 * screen's words ("Failed to delete listing: …"), the dialog staying open. Closing is refused
 * while the action runs.
 */
export const useDialogAction = <T>(failed: string) => {
  const [state, setState] = useState<DialogState<T> | null>(null)
  const latest = useRef(state)
  latest.current = state
  const open = useCallback((target: T) => setState({ target, busy: false, error: null }), [])
  const close = useCallback(() => setState((current) => (current?.busy === true ? current : null)), [])
  /** Changes what the dialog holds (a form's values) without touching busy or error. */
  const update = useCallback(
    (change: (target: T) => T) => setState((current) => (current === null ? null : { ...current, target: change(current.target) })),
    []
  )
  const run = useCallback(
    async (action: (target: T) => Promise<unknown>, after?: () => void) => {
      const current = latest.current
      if (current === null || current.busy) return
      setState({ ...current, busy: true, error: null })
      try {
        await action(current.target)
        setState(null)
        after?.()
      } catch (error) {
        setState((now) => (now === null ? null : { ...now, busy: false, error: `${failed}: ${failureOf(error).message}` }))
      }
    },
    [failed]
  )
  return { state, open, close, update, run }
}
