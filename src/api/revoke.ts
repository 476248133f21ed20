import { paths } from "virtual:answer-schemas"

/**
 * Sign-out ends the session on the server (`POST /api/admin/auth/logout` with its token); with no
 * link it can't at that moment, so the browser keeps the token's SHA-256 (the hash the server
 * stores sessions under), never the token, and sends it to `POST /api/admin/auth/revoke` when the
 * link is back: the browser's `online`, the console's next load in this browser, a sign-in, and
 * while a page is open, again after 5 s, 10 s, 20 s … up to every 5 minutes (docs/security.md,
 * "What stays in the browser"; docs/api.md, "Sign-out"). The hash opens nothing: it can only end
 * that session. It is kept apart from `adminToken`, and another person signing in leaves it be.
 * It stays at most 2 h past its sign-out: unused for that long, the server has ended the session
 * itself (docs/security.md, "Sessions": 2 h idle).
 */
export const REVOKE_KEY = "sessionsToEnd"
/** Where an earlier console kept the tokens themselves: read once, hashed, and removed. */
const TOKENS_KEY = "tokensToRevoke"

const KEPT_MS = 2 * 60 * 60_000
const FIRST_RETRY_MS = 5_000
const LAST_RETRY_MS = 5 * 60_000

interface ToEnd {
  readonly tokenHash: string
  readonly until: number
}

const isToEnd = (value: unknown): value is ToEnd =>
  typeof value === "object" && value !== null && typeof (value as ToEnd).tokenHash === "string" && typeof (value as ToEnd).until === "number"

const readList = (key: string): ReadonlyArray<unknown> => {
  try {
    const parsed: unknown = JSON.parse(globalThis.localStorage?.getItem(key) ?? "[]")
    return Array.isArray(parsed) ? parsed : []
  } catch {
    return []
  }
}

const kept = (): ReadonlyArray<ToEnd> =>
  readList(REVOKE_KEY)
    .filter(isToEnd)
    .filter((one) => one.until > Date.now())

const keep = (hashes: ReadonlyArray<ToEnd>) => {
  if (hashes.length === 0) localStorage.removeItem(REVOKE_KEY)
  else localStorage.setItem(REVOKE_KEY, JSON.stringify(hashes))
}

/** Read again before each write: a sign-out in another tab may have kept one meanwhile. */
const add = (one: ToEnd) => keep([...kept().filter((other) => other.tokenHash !== one.tokenHash), one])
const drop = (ended: ReadonlySet<string>) => keep(kept().filter((one) => !ended.has(one.tokenHash)))

/** The token's SHA-256 in hex; none where the page has no Web Crypto (a page not served securely). */
const hashOf = async (token: string): Promise<string | undefined> => {
  const subtle = globalThis.crypto?.subtle
  if (subtle === undefined) return undefined
  const digest = new Uint8Array(await subtle.digest("SHA-256", new TextEncoder().encode(token)))
  return Array.from(digest, (byte) => byte.toString(16).padStart(2, "0")).join("")
}

/** The tokens an earlier console kept, as hashes with the same deadline; the tokens themselves go. */
const hashKeptTokens = async () => {
  const tokens = readList(TOKENS_KEY)
  if (tokens.length === 0) return
  for (const one of tokens) {
    const { token, until } = one as { token?: unknown; until?: unknown }
    const tokenHash = typeof token === "string" ? await hashOf(token) : undefined
    if (tokenHash !== undefined && typeof until === "number" && until > Date.now()) add({ tokenHash, until })
  }
  localStorage.removeItem(TOKENS_KEY)
}

/** How a try went: over on the server (or never to be: a 400), or to try again, not before `waitMs`. */
type Outcome = { readonly over: true } | { readonly over: false; readonly waitMs: number }

const outcomeOf = (answer: Response): Outcome => {
  if (answer.ok || answer.status === 400) return { over: true }
  const retryAfter = Number(answer.headers.get("retry-after"))
  return { over: false, waitMs: Number.isFinite(retryAfter) ? retryAfter * 1000 : 0 }
}

/** Ends the session by its token's hash (no bearer): 204 whether it was still open or not. */
const revoke = async (tokenHash: string): Promise<Outcome> => {
  try {
    const headers = { "content-type": "application/json" }
    return outcomeOf(await fetch(paths.revoke, { method: "POST", headers, body: JSON.stringify({ tokenHash }), cache: "no-store" }))
  } catch {
    return { over: false, waitMs: 0 }
  }
}

/** Signs out with the token itself, while this page still holds it: true once the session is over there. */
const logout = async (token: string): Promise<boolean> => {
  try {
    const answer = await fetch(paths.logout, { method: "POST", headers: { authorization: `Bearer ${token}` }, cache: "no-store" })
    return answer.ok || answer.status === 401
  } catch {
    return false
  }
}

/** This page's next try, and how long the one after waits: doubled each time, reset by success or `online`. */
let retry: ReturnType<typeof setTimeout> | undefined
let nextWaitMs = FIRST_RETRY_MS

const tryAgainLater = (atLeastMs = 0) => {
  clearTimeout(retry)
  retry = setTimeout(() => void revokeKept(), Math.max(nextWaitMs, atLeastMs))
  nextWaitMs = Math.min(nextWaitMs * 2, LAST_RETRY_MS)
}

/** Sends every hash kept; those the server has answered leave, and if any remain, this page tries again later. */
export const revokeKept = async (): Promise<void> => {
  await hashKeptTokens()
  const hashes = kept()
  keep(hashes)
  if (hashes.length === 0) return
  const outcomes = await Promise.all(hashes.map(async (one) => ({ tokenHash: one.tokenHash, outcome: await revoke(one.tokenHash) })))
  drop(new Set(outcomes.filter(({ outcome }) => outcome.over).map(({ tokenHash }) => tokenHash)))
  const waits = outcomes.flatMap(({ outcome }) => (outcome.over ? [] : [outcome.waitMs]))
  if (waits.length > 0) tryAgainLater(Math.max(...waits))
  else nextWaitMs = FIRST_RETRY_MS
}

/**
 * Signs out of `token`: its hash is kept first (a tab closed mid-call still ends the session
 * later), then the token, held in memory only, is sent; resolves once tried.
 */
export const signOutOf = async (token: string): Promise<void> => {
  const tokenHash = await hashOf(token)
  if (tokenHash !== undefined) add({ tokenHash, until: Date.now() + KEPT_MS })
  if (await logout(token)) {
    if (tokenHash !== undefined) drop(new Set([tokenHash]))
  } else if (tokenHash !== undefined) tryAgainLater()
}

/** Start-up: what an earlier sign-out could not send goes now, and whenever the link comes back. */
export const revokeOnContact = (): void => {
  void revokeKept()
  globalThis.addEventListener?.("online", () => {
    nextWaitMs = FIRST_RETRY_MS
    void revokeKept()
  })
}
