import { useCallback, useLayoutEffect, useRef } from "react"

/**
 * A function whose identity never changes and which always runs the latest render's `run`: for
 * a row action, a palette command or a machine's provided actor that must not be rebuilt (nor
 * make a memo rebuild) each time what it reads changes. It may be called from event handlers
 * and effects, not during a render (it would run the previous render's `run` there).
 */
export const useStableCallback = <Args extends ReadonlyArray<unknown>, Result>(run: (...args: Args) => Result): ((...args: Args) => Result) => {
  const latest = useRef(run)
  useLayoutEffect(() => {
    latest.current = run
  })
  return useCallback((...args: Args) => latest.current(...args), [])
}
