import { dropKeptPaint } from "./list/kept-paint.ts"

/**
 * Resolved once the first screen shows its content (a list its first page: `firstScreenShown`),
 * or after a while for a screen that never says so. Until then the browser's idle time is not
 * idle: it is waiting for the first answers, and a preloaded chunk arriving then would take a
 * connection and the main thread from them (docs/architecture.md, "First screen"). Then too the
 * page a reload painted from the tab's copy gives way to the console's own (./list/kept-paint.ts).
 */
const FIRST_SCREEN_FALLBACK_MS = 1_500
let markShown = () => {}
const shown = new Promise<void>((resolve) => {
  markShown = resolve
  setTimeout(resolve, FIRST_SCREEN_FALLBACK_MS)
}).then(dropKeptPaint)

/** Tells the deferred work that the first screen has what it came for. */
export const firstScreenShown = () => markShown()

/** Runs `run` once the first screen has shown its content. */
export const afterFirstScreen = (run: () => void) => void shown.then(run)
