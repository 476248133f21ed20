import { rememberedUser } from "../../api/auth.ts"
import { revokeOnContact } from "../../api/revoke.ts"
import { holdSession } from "../../api/session.ts"
import { STORE_KEPT_KEY } from "../../lib/store/handle.ts"
import { TOKEN_KEY, USER_KEY } from "../../lib/token.ts"
import { askEarly } from "./early-requests.ts"

/** The id of the person this browser remembers the token for, when the browser's store has kept pages for them. */
export const keptFor = (): string | undefined => {
  const owner = localStorage.getItem(STORE_KEPT_KEY)
  return owner !== null && rememberedUser(localStorage.getItem(USER_KEY))?._id === owner ? owner : undefined
}

/**
 * Start-up before the first render. With a stored token, the API layer holds it and the answers
 * the first screen needs are asked for at once (./early-requests.ts); the signed-in screens'
 * chunk is preloaded by the page itself (./preload.ts) and awaited by ./render.tsx. When the
 * browser's store has kept pages for the person the token was for, it starts opening now, beside
 * all that, so a screen seen before shows its rows from it (docs/architecture.md, "The browser's
 * store"). Without a token the sign-in form needs none of it: the form fetches the client once it
 * is painted (docs/architecture.md, "First screen").
 */
export const startEarly = () => {
  // A sign-out made with no link ends its session at the first contact (docs/security.md).
  revokeOnContact()
  const token = globalThis.localStorage?.getItem(TOKEN_KEY) ?? null
  if (token === null) return
  holdSession(token)
  askEarly(location.pathname, location.search)
  const owner = keptFor()
  if (owner !== undefined) void import("../client/open-store.ts").then((store) => store.openEarly(owner)).catch(() => undefined)
}
