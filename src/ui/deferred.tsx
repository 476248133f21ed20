import { Flex, Spinner, Text } from "@radix-ui/themes"
import { type ComponentType, lazy, type ReactNode, Suspense } from "react"

/** After the first paint, when the browser is idle (or soon, where it has no idle callback). */
const whenIdle = (run: () => void) => {
  if (typeof requestIdleCallback === "function") requestIdleCallback(run, { timeout: 2_000 })
  else setTimeout(run, 200)
}

/**
 * A component kept out of the first screen's code (docs/architecture.md, "First screen"). Its
 * chunk loads when it is first shown, or once the browser is idle after the first screen,
 * whichever comes first; once there it renders directly (a lazy component would suspend, and React holds a
 * revealed Suspense boundary back for up to 300 ms). Until then it shows `fallback`.
 *
 * Not for dialogs: keys typed before a deferred dialog had mounted would be lost, so the palette
 * and every dialog stay in their screen's chunk.
 */
const deferred = <P extends object>(load: () => Promise<ComponentType<P>>, fallback: ReactNode) => {
  let loaded: ComponentType<P> | undefined
  let loading: Promise<ComponentType<P>> | undefined
  const start = () => (loading ??= load().then((component) => (loaded = component)))
  const Lazy = lazy(() => start().then((component) => ({ default: component })))
  whenIdle(() => void start())
  const Deferred = (props: P) => {
    if (loaded !== undefined) {
      const Loaded = loaded
      return <Loaded {...props} />
    }
    return (
      <Suspense fallback={fallback}>
        <Lazy {...props} />
      </Suspense>
    )
  }
  return Deferred
}

const ScreenLoading = () => (
  <Flex role="status" aria-live="polite" align="center" justify="center" gap="3" p="6">
    <Spinner size="3" />
    <Text color="gray">Loading…</Text>
  </Flex>
)

/**
 * A feature's screens in their own chunk: loaded when one is first shown, else once the current
 * screen is idle. A first visit straight to one has it preloaded by `index.html`
 * (tools/vite-early-start.ts, `byPath`).
 */
export const loadScreen = <P extends object>(load: () => Promise<ComponentType<P>>) => deferred(load, <ScreenLoading />)
