import { holdSession } from "../../api/session.ts"
import { TOKEN_KEY } from "../../lib/token.ts"
import { askEarly } from "./early-requests.ts"

/**
 * Start-up before the first render. With a stored token, the API layer holds it and the answers
 * the first screen needs are asked for at once (./early-requests.ts); the signed-in screens'
 * chunk is preloaded by the page itself (./preload.ts) and awaited by ./render.tsx. Without a
 * token the sign-in form needs none of it: the form fetches the client once it is painted
 * (docs/architecture.md, "First screen").
 */
export const startEarly = () => {
  const token = globalThis.localStorage?.getItem(TOKEN_KEY) ?? null
  if (token === null) return
  holdSession(token)
  askEarly(location.pathname, location.search)
}
