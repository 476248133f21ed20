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
