import { addressFirstPage } from "../features/addresses/first-page.ts"
import { blogFirstPage } from "../features/blog/list-query.ts"
import { SESSION_CHECK_PATH } from "../api/auth.ts"
import { TOKEN_KEY } from "../lib/token.ts"
import { prefetch } from "../api/prefetch.ts"
import { preloadSignedInScreens } from "./signed-in-chunk.ts"

const firstPages = [addressFirstPage, blogFirstPage]

/**
 * Start-up before the first render. With a stored token, everything the first screen needs
 * starts at once and in parallel: the session check, the list's first page and the signed-in
 * screens; the answers are checked without effect (src/api/checked-answer.ts). Without one, the sign-in form needs none of it: the form fetches the
 * client once it is painted (docs/architecture.md, "First screen").
 */
export const startEarly = () => {
  const token = globalThis.localStorage?.getItem(TOKEN_KEY) ?? null
  if (token === null) return
  prefetch(token, SESSION_CHECK_PATH)
  for (const firstPage of firstPages) {
    const path = firstPage(location.pathname, location.search)
    if (path !== undefined) prefetch(token, path)
  }
  void preloadSignedInScreens()
}
