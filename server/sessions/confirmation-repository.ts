import { Effect } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { dieOnSqlError, inTransaction } from "../platform/database.ts"

/**
 * A session's confirmations (docs/security.md, "Confirm what matters"): when it last confirmed it's
 * you, with a passkey or with a code by e-mail, and the code it asked for to confirm. A session's
 * own columns (`last_passkey_at`, `confirmed_at`) and `confirm_codes`; the checks that ask for a
 * confirmation are server/auth/roles.ts, its endpoints server/auth/confirm.ts.
 */

/**
 * How a session confirms it's you, and until when it needs not (docs/security.md, "Confirm what
 * matters"): by its last passkey use, or its last code (a sign-in or a confirmation made while the
 * account had no passkey: the one that adds the first keeps its minutes; a sign-in finished with a
 * recovery code); `minutes` after it.
 */
export const sessionConfirmation = (id: string, minutes: number) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient
    const rows = yield* sql<{ passkeys: number; until: Date | null }>`
      SELECT p.passkeys, greatest(s.last_passkey_at, s.confirmed_at) + make_interval(mins => ${minutes}::int) AS until
      FROM sessions s CROSS JOIN LATERAL (SELECT count(*)::int AS passkeys FROM passkeys WHERE admin_id = s.admin_id) p
      WHERE s.id = ${id}`
    const row = rows[0]
    const until = row?.until ?? null
    return { method: (row?.passkeys ?? 0) > 0 ? ("passkey" as const) : ("code" as const), until: until !== null && until > new Date() ? until : null }
  }).pipe(dieOnSqlError)

/** The session confirmed it's you now: with a passkey, or with a code by e-mail (only while the account has no passkey). */
export const confirmSession = (id: string, by: "passkey" | "code") =>
  Effect.gen(function* () {
    const sql = yield* SqlClient
    yield* by === "passkey"
      ? sql`UPDATE sessions SET last_passkey_at = now() WHERE id = ${id}`
      : sql`UPDATE sessions s SET confirmed_at = now() WHERE id = ${id} AND NOT EXISTS (SELECT 1 FROM passkeys p WHERE p.admin_id = s.admin_id)`
  }).pipe(dieOnSqlError)

/** Keeps a new confirmation code for the session (one at a time: a new one replaces it), valid `minutes`. */
export const keepConfirmCode = (sessionId: string, codeHash: string, minutes: number) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient
    yield* sql`
      INSERT INTO confirm_codes (session_id, code_hash, expires_at) VALUES (${sessionId}, ${codeHash}, now() + make_interval(mins => ${minutes}::int))
      ON CONFLICT (session_id) DO UPDATE SET code_hash = EXCLUDED.code_hash, tries = 0, expires_at = EXCLUDED.expires_at`
  }).pipe(dieOnSqlError)

/**
 * Compares a typed code with the session's, its row held (guesses at once take turns): true once
 * for the right one, which goes; a wrong one counts, and the `maxTries`-th ends it.
 */
export const tryConfirmCode = (sessionId: string, codeHash: string, maxTries: number) =>
  inTransaction(
    Effect.gen(function* () {
      const sql = yield* SqlClient
      const rows = yield* sql<{ codeHash: string }>`
        SELECT code_hash FROM confirm_codes WHERE session_id = ${sessionId} AND expires_at > now() AND tries < ${maxTries} FOR UPDATE`
      const live = rows[0]
      if (live === undefined) return false
      if (live.codeHash === codeHash) {
        yield* sql`DELETE FROM confirm_codes WHERE session_id = ${sessionId}`
        return true
      }
      yield* sql`UPDATE confirm_codes SET tries = tries + 1 WHERE session_id = ${sessionId}`
      return false
    })
  ).pipe(dieOnSqlError)

/**
 * Inside the transaction that added a passkey, the account's row held: when it is the account's
 * first, its other sessions' confirmations by code end, since from now on confirming asks for the
 * passkey; the session that added it keeps its minutes (docs/security.md, "Confirm what matters").
 */
export const firstPasskeyEndsCodeConfirmations = (adminId: string, addedBy: string) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient
    yield* sql`
      UPDATE sessions SET confirmed_at = NULL
      WHERE admin_id = ${adminId} AND id <> ${addedBy} AND confirmed_at IS NOT NULL
        AND (SELECT count(*) FROM passkeys WHERE admin_id = ${adminId}) = 1`
  }).pipe(dieOnSqlError)
