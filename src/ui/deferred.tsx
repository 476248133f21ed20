import { Flex, Spinner, Text } from "@radix-ui/themes"
import { type ComponentType, type ReactNode, useEffect, useState } from "react"
import { afterFirstScreen } from "../lib/first-screen.ts"

/** When the browser is idle (or soon, where it has no idle callback). */
const onIdle = (run: () => void) => {
  if (typeof requestIdleCallback === "function") requestIdleCallback(run, { timeout: 2_000 })
  else setTimeout(run, 200)
}

/** How long nobody has typed, clicked or scrolled before a chunk is preloaded in the background. */
const QUIET_MS = 1_000
let lastInput = -Infinity
if (typeof addEventListener === "function") {
  for (const type of ["keydown", "pointerdown", "click", "input", "wheel"]) {
    addEventListener(type, () => void (lastInput = performance.now()), { capture: true, passive: true })
  }
}
// The first screen showing counts as input: whoever waited for it acts now, often within the
// second (a key, the palette), and the preloads' long tasks would be in their way.
afterFirstScreen(() => void (lastInput = Math.max(lastInput, performance.now())))
const waiting: Array<() => Promise<unknown>> = []
let pumping = false

/** Runs the waiting preloads one at a time, each in an idle moment after a quiet second. */
const pump = () => {
  const next = waiting[0]
  if (pumping || next === undefined) return
  pumping = true
  const attempt = () => {
    const quiet = performance.now() - lastInput
    if (quiet < QUIET_MS) return void setTimeout(attempt, QUIET_MS - quiet)
    const run = () => {
      if (performance.now() - lastInput < QUIET_MS) return attempt()
      waiting.shift()
      void next()
        .catch(() => undefined)
        .finally(() => {
          pumping = false
          pump()
        })
    }
    onIdle(run)
  }
  attempt()
}

/**
 * After the first screen has shown its content, one preload at a time, each once nobody has
 * touched the keyboard, mouse or wheel for a second and the browser is idle. Evaluating a
 * screen's chunk is one long task, and a key or click
 * that arrives during it waits for it: preloads wait for a pause instead (docs/architecture.md,
 * "Interactions"). A screen opened before its chunk was preloaded loads it at once. `first`
 * puts a preload ahead of the screens' (the API client: most screens' calls need it).
 */
export const whenQuiet = (preload: () => Promise<unknown>, options: { readonly first?: boolean } = {}) => {
  afterFirstScreen(() => {
    if (options.first === true) waiting.unshift(preload)
    else waiting.push(preload)
    pump()
  })
}

/**
 * A component kept out of the first screen's code (docs/architecture.md, "First screen"). Its
 * chunk loads when it is first shown, or in a quiet moment after the first screen
 * (`whenQuiet`), whichever comes first. Until it is there the fallback shows, and the component
 * replaces it in the render after the chunk arrives: no Suspense, whose fallback React keeps on
 * screen for at least 300 ms once shown (a reload's screen would wait that long for a chunk the
 * service worker gives in a few; docs/decisions.md, "A reload opens at once"). The component is
 * mounted once, when its chunk is there.
 */
const deferred = <P extends object>(load: () => Promise<ComponentType<P>>, fallback: ReactNode, preload = true) => {
  let loaded: ComponentType<P> | undefined
  let loading: Promise<ComponentType<P>> | undefined
  const start = () => (loading ??= patiently(load).then((component) => (loaded = component)))
  if (preload) whenQuiet(start)
  const Deferred = (props: P) => {
    const [Component, setComponent] = useState(() => loaded)
    useEffect(() => {
      if (Component !== undefined) return
      let shown = true
      void start().then((component) => shown && setComponent(() => component))
      return () => void (shown = false)
    }, [Component])
    return Component === undefined ? fallback : <Component {...props} />
  }
  return Deferred
}

/** How long a chunk that could not be fetched waits before it is asked for again. */
const CHUNK_RETRY_MS = 3_000

/**
 * A chunk's import, asked for again when it fails (the link is down, the server restarting)
 * rather than failing: the part shows its fallback meanwhile, and the console goes on working
 * (docs/architecture.md, "The browser's store").
 */
export const patiently = <T,>(load: () => Promise<T>): Promise<T> =>
  load().catch(
    () =>
      new Promise<T>((resolve) => {
        const again = () => {
          clearTimeout(timer)
          removeEventListener("online", again)
          resolve(patiently(load))
        }
        const timer = setTimeout(again, CHUNK_RETRY_MS)
        addEventListener("online", again)
      })
  )

/**
 * A part of a screen kept out of the first screen's code (a dialog and its form): nothing while
 * its chunk loads, which starts when it is first shown or in a quiet moment after the first
 * screen. Render it only once it is wanted, or its first render asks for the chunk at once.
 */
export const loadPart = <P extends object>(load: () => Promise<ComponentType<P>>) => deferred(load, null)

/** A part few screens show (a list's count cards, its confirmation): loaded only when first shown, never ahead. */
export const loadWhenShown = <P extends object>(load: () => Promise<ComponentType<P>>) => deferred(load, null, false)

const ScreenLoading = () => (
  <Flex role="status" aria-live="polite" align="center" justify="center" gap="3" p="6">
    <Spinner size="3" />
    <Text color="gray">Loading…</Text>
  </Flex>
)

/**
 * A feature's screens in their own chunk: loaded when one is first shown, else in a quiet
 * moment once the current screen has shown its content. A first visit straight to one has it preloaded by `index.html`
 * (src/app/start/preload-signed-in.ts, `byPath`).
 */
export const loadScreen = <P extends object>(load: () => Promise<ComponentType<P>>) => deferred(load, <ScreenLoading />)
