import { paths } from "virtual:answer-schemas"

/**
 * Sign-out ends the session on the server (`POST /api/admin/auth/logout` with its token); with no
 * link it can't at that moment, so the token is kept here until the server has ended it, and sent
 * the next time the link is back: the browser's `online`, the console's next load in this browser,
 * a sign-in (docs/security.md, "What stays in the browser"). It is kept apart from `adminToken`,
 * which sign-out forgets at once: nothing here opens the console, and another person signing in
 * leaves it be. A token stays at most 2 h past its sign-out: unused for that long, the server has
 * ended the session itself (docs/security.md, "Sessions": 2 h idle).
 */
export const REVOKE_KEY = "tokensToRevoke"

const KEPT_MS = 2 * 60 * 60_000

interface ToRevoke {
  readonly token: string
  readonly until: number
}

const isToRevoke = (value: unknown): value is ToRevoke =>
  typeof value === "object" && value !== null && typeof (value as ToRevoke).token === "string" && typeof (value as ToRevoke).until === "number"

const kept = (): ReadonlyArray<ToRevoke> => {
  try {
    const parsed: unknown = JSON.parse(globalThis.localStorage?.getItem(REVOKE_KEY) ?? "[]")
    return Array.isArray(parsed) ? parsed.filter(isToRevoke).filter((one) => one.until > Date.now()) : []
  } catch {
    return []
  }
}

const keep = (tokens: ReadonlyArray<ToRevoke>) => {
  if (tokens.length === 0) localStorage.removeItem(REVOKE_KEY)
  else localStorage.setItem(REVOKE_KEY, JSON.stringify(tokens))
}

/** Ends the session on the server: true once it is over there (ended now, or already: a 401). */
const revoke = async (token: string): Promise<boolean> => {
  try {
    const answer = await fetch(paths.logout, { method: "POST", headers: { authorization: `Bearer ${token}` }, cache: "no-store" })
    return answer.ok || answer.status === 401
  } catch {
    return false
  }
}

/** Tries every token kept; those the server has ended leave (each tab may try: a second revocation is a 401). */
export const revokeKept = async (): Promise<void> => {
  const tokens = kept()
  if (tokens.length === 0) return keep(tokens)
  const ended = new Set((await Promise.all(tokens.map(async (one) => ((await revoke(one.token)) ? one.token : undefined)))).filter((one) => one !== undefined))
  // Read again: a sign-out in another tab may have kept one meanwhile.
  keep(kept().filter((one) => !ended.has(one.token)))
}

/** Signs out of `token`: kept first (a tab closed mid-call still revokes it later), then sent; resolves once tried. */
export const signOutOf = (token: string): Promise<void> => {
  keep([...kept().filter((one) => one.token !== token), { token, until: Date.now() + KEPT_MS }])
  return revokeKept()
}

/** Start-up: what an earlier sign-out could not send goes now, and whenever the link comes back. */
export const revokeOnContact = (): void => {
  void revokeKept()
  globalThis.addEventListener?.("online", () => void revokeKept())
}
