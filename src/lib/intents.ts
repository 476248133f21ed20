import { useEffect, useEffectEvent } from "react"

/**
 * What a command asks of a screen, by name ("new:event"), instead of reaching into the page or
 * the history entry: the screen that handles it does it, at once when it is shown, or as soon as
 * it is (a command that first navigates there, the screen's code still loading).
 */
const handlers = new Map<string, () => void>()
const waiting = new Set<string>()

export const ask = (intent: string) => {
  const handle = handlers.get(intent)
  if (handle === undefined) waiting.add(intent)
  else handle()
}

/** Does what `intent` asks while the calling screen is mounted, including an ask that came before it was. */
export const useIntent = (intent: string, run: () => void) => {
  const handle = useEffectEvent(run)
  useEffect(() => {
    handlers.set(intent, () => handle())
    if (waiting.delete(intent)) handle()
    return () => void handlers.delete(intent)
  }, [intent])
}
