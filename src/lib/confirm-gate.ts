/**
 * The gate before a change that matters (docs/security.md, "Confirm what matters"): the signed-in
 * console registers it (src/app/ConfirmAgainHost.tsx); every write to admins, roles, the allowed
 * addresses, protected data, passkey rules and resets, and one's own passkeys and recovery codes
 * waits for it before it is sent or queued (src/api/client.ts). With no gate (signed out, the
 * sign-in's own steps, a test's page) the write goes as it is.
 */

/**
 * The writes that ask: admin users (their changes and passkey resets), allowed addresses, protected
 * data, passkey rules, one's passkeys (renamed, removed: `passkeys/{id}`; added, and recovery codes
 * made: `auth/passkeys…`), but not a passkey sign-in (`auth/passkeys/sign-in…`), which has no session.
 */
const MATTERS = /^\/api\/admin\/(users|ip-management|protected-data|passkeys|auth\/passkeys(?!\/sign-in))(\/|$)/u

type Gate = () => Promise<void>
let gate: Gate | undefined

export const setConfirmGate = (next: Gate | undefined) => {
  gate = next
}

/** Waits for the person to confirm (or decline) when `path` is a change that matters. */
export const confirmFirst = async (path: string): Promise<void> => {
  if (gate !== undefined && MATTERS.test(path)) await gate()
}
