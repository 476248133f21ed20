import { addressFirstPage } from "../features/addresses/first-page.ts"
import { blogFirstPage } from "../features/blog/list-query.ts"
import { SESSION_CHECK_PATH } from "../api/auth.ts"
import { TOKEN_KEY } from "../lib/token.ts"
import { prefetch } from "../api/prefetch.ts"
import { holdSession } from "../api/session.ts"

const firstPages = [addressFirstPage, blogFirstPage]

/**
 * Start-up before the first render. With a stored token, the answers the first screen needs are
 * asked for at once and in parallel: the session check and the list's first page, checked
 * without effect (src/api/checked-answer.ts); the signed-in screens' chunk is preloaded by the
 * page itself (tools/vite-early-start.ts) and awaited by src/app/render.tsx. Without a token the
 * sign-in form needs none of it: the form fetches the client once it is painted
 * (docs/architecture.md, "First screen"; what the early requests buy: "What each speed piece buys").
 */
export const startEarly = () => {
  const token = globalThis.localStorage?.getItem(TOKEN_KEY) ?? null
  if (token === null) return
  holdSession(token)
  if (__EARLY_REQUESTS__) {
    prefetch(SESSION_CHECK_PATH)
    for (const firstPage of firstPages) {
      const path = firstPage(location.pathname, location.search)
      if (path !== undefined) prefetch(path)
    }
  }
}
