import { StrictMode } from "react"
import { createRoot } from "react-dom/client"
import { startingAnswersRead } from "../../api/prefetch.ts"
import { TOKEN_KEY } from "../../lib/token.ts"
import { App } from "../App.tsx"
import { keptFor } from "./boot.ts"
import { preloadSignedInScreens } from "./signed-in-chunk.ts"

const root = document.getElementById("root")
if (root === null) throw new Error("#root is missing from index.html")

/** How long the first render waits for start-up's answers before it shows loading states. */
const ANSWERS_AWAITED_MS = 100

// With a stored token the first screen is a signed-in one, and start-up has already asked for
// its chunk, the session check and the list's first page: the first render waits for them
// (briefly), so it commits the screen with its rows rather than a spinner or a "Loading…" that
// a second render replaces a moment later (docs/architecture.md, "First screen").
// A person whose store has kept pages needs no answer first: a screen seen before shows from the
// store, so the first render waits for the screens' chunk alone (docs/architecture.md, "The
// browser's store").
const firstScreenReady =
  globalThis.localStorage?.getItem(TOKEN_KEY) == null
    ? Promise.resolve()
    : Promise.all([preloadSignedInScreens().catch(() => undefined), keptFor() === undefined ? startingAnswersRead(ANSWERS_AWAITED_MS) : undefined])

void firstScreenReady.then(() =>
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>
  )
)
