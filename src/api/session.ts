/**
 * The signed-in session's token, held by the API layer, which puts it on every call it makes
 * (docs/architecture.md, "Layers"): screens and hooks never see it. The auth machine's
 * host (src/app/auth.ts) hands it over when a session starts and takes it back when it ends;
 * start-up hands over the stored one before its first requests (src/app/start/boot.ts).
 */
let held: string | undefined

export const sessionToken = (): string | undefined => held

export const holdSession = (token: string | null | undefined): void => {
  held = token === null || token === "" ? undefined : token
}

/** The header that carries the token, when there is one. */
export const sessionHeaders = (): Record<string, string> => (held === undefined ? {} : { authorization: `Bearer ${held}` })

let refused: (() => void) | undefined

/** Who is told that the server refused the held token: the auth machine's host, which ends the session (src/app/App.tsx). */
export const whenTokenRefused = (listener: (() => void) | undefined): void => {
  refused = listener
}

/**
 * The server answered 401 to a call made with `token` (any call: a read, a command, the change
 * stream): the session is over, unless another has begun since (docs/security.md, "What stays in
 * the browser").
 */
export const tokenRefused = (token: string | undefined): void => {
  if (token !== undefined && token === held) refused?.()
}
