import { Flex, Spinner, Text } from "@radix-ui/themes"
import { type ComponentType, type ReactNode, Suspense, use } from "react"
import { afterFirstScreen } from "../lib/first-screen.ts"

/** After the first screen has shown its content, when the browser is idle (or soon, where it has no idle callback). */
export const whenIdle = (run: () => void) => {
  afterFirstScreen(() => {
    if (typeof requestIdleCallback === "function") requestIdleCallback(run, { timeout: 2_000 })
    else setTimeout(run, 200)
  })
}

/**
 * A component kept out of the first screen's code (docs/architecture.md, "First screen"). Its
 * chunk loads when it is first shown, or once the browser is idle after the first screen,
 * whichever comes first. The tree it renders is the same before and after the chunk arrives
 * (one Suspense boundary, one component reading the chunk with `use`), so nothing below it is
 * mounted twice; once the chunk is there it renders without suspending.
 */
const deferred = <P extends object>(load: () => Promise<ComponentType<P>>, fallback: ReactNode) => {
  let loaded: ComponentType<P> | undefined
  let loading: Promise<ComponentType<P>> | undefined
  const start = () => (loading ??= load().then((component) => (loaded = component)))
  whenIdle(() => void start())
  const Loaded = (props: P) => {
    const Component = loaded ?? use(start())
    return <Component {...props} />
  }
  const Deferred = (props: P) => (
    <Suspense fallback={fallback}>
      <Loaded {...props} />
    </Suspense>
  )
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
