import { Effect } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { randomInt } from "node:crypto"
import type { Role } from "../../contract/common.ts"
import { PERSONAL_GRACE_DAYS, type PasskeyRule } from "../../contract/passkeys.ts"
import { dieOnSqlError } from "../platform/database.ts"
import { OTP_MAX_ATTEMPTS } from "./policy.ts"

/**
 * Passkeys required by role (docs/security.md, "Passkeys"): each role's rule, each account's own
 * grace, the accounts' recovery codes and a code sign-in's second step. Rows only: the sign-in
 * (sign-in.ts), the second step (second-step.ts) and the passkeys' handlers (passkeys.ts) decide.
 */

/** Every role's rule, in the order of `Roles`: a role without a row requires nothing. */
export const passkeyRules = Effect.gen(function* () {
  const sql = yield* SqlClient
  const rows = yield* sql<{ role: Role; required: boolean; graceUntil: Date | null }>`SELECT role, required, grace_until FROM passkey_rules`
  const byRole = new Map(rows.map((row) => [row.role, row]))
  return (["super_admin", "admin", "moderator"] as const).map((role): PasskeyRule => ({
    role,
    required: byRole.get(role)?.required ?? false,
    graceUntil: byRole.get(role)?.graceUntil?.toISOString() ?? null
  }))
}).pipe(dieOnSqlError)

/** Sets a role's rule: required from now plus `graceDays` for a person who has no passkey. */
export const setPasskeyRule = (role: Role, required: boolean, graceDays: number) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient
    const rows = yield* sql<{ graceUntil: Date | null }>`
      INSERT INTO passkey_rules (role, required, grace_until, updated_at)
      VALUES (${role}, ${required}, ${required ? sql`now() + make_interval(days => ${graceDays}::int)` : sql`NULL`}, now())
      ON CONFLICT (role) DO UPDATE SET required = EXCLUDED.required, grace_until = EXCLUDED.grace_until, updated_at = now()
      RETURNING grace_until`
    return { role, required, graceUntil: rows[0]?.graceUntil?.toISOString() ?? null } satisfies PasskeyRule
  }).pipe(dieOnSqlError)

/**
 * What the account's role asks of a sign-in with a code: nothing (`required` false); a second
 * step (it has passkeys); the code alone until `dueBy` (it has none, within the role's grace or
 * its own); or no session (none, and no grace left: `dueBy` null). Read in the sign-in's
 * transaction, the account's row held, so a passkey added or removed meanwhile is counted.
 */
export const passkeyRequirement = (adminId: string, accountRole: Role) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient
    const rows = yield* sql<{ required: boolean; dueBy: Date | null; passkeys: number; recoveryCodes: number }>`
      SELECT coalesce(r.required, false) AS required,
             CASE WHEN greatest(r.grace_until, a.passkey_grace_until) > now() THEN greatest(r.grace_until, a.passkey_grace_until) END AS due_by,
             (SELECT count(*)::int FROM passkeys p WHERE p.admin_id = a.id) AS passkeys,
             (SELECT count(*)::int FROM recovery_codes c WHERE c.admin_id = a.id) AS recovery_codes
      FROM admins a LEFT JOIN passkey_rules r ON r.role = ${accountRole}
      WHERE a.id = ${adminId}`
    const row = rows[0]
    return row === undefined ? { required: false, dueBy: null, passkeys: 0, recoveryCodes: 0 } : row
  }).pipe(dieOnSqlError)

/** Crockford's base 32: no I, L, O or U, so a code read aloud or copied by hand survives. */
const ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz"

/** Twelve characters (60 bits) from the CSPRNG, shown in three groups of four. */
export const newRecoveryCode = (): string => {
  const chars = Array.from({ length: 12 }, () => ALPHABET[randomInt(0, 32)] ?? "0").join("")
  return `${chars.slice(0, 4)}-${chars.slice(4, 8)}-${chars.slice(8)}`
}

/** A recovery code as typed, in the form it was hashed: dashes and spaces out, lower case, Crockford's look-alikes read as digits. */
export const normalizeRecoveryCode = (typed: string): string => typed.toLowerCase().replaceAll(/[\s-]/gu, "").replaceAll("o", "0").replaceAll(/[il]/gu, "1")

/** Replaces the account's recovery codes with new ones (their hashes); returns how many. */
export const replaceRecoveryCodes = (adminId: string, hashes: ReadonlyArray<string>) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient
    yield* sql`DELETE FROM recovery_codes WHERE admin_id = ${adminId}`
    for (const hash of hashes) yield* sql`INSERT INTO recovery_codes (admin_id, code_hash) VALUES (${adminId}, ${hash})`
    return hashes.length
  }).pipe(dieOnSqlError)

/** Uses one of the account's recovery codes up: true for the one caller that did. */
export const useRecoveryCode = (adminId: string, hash: string) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient
    const rows = yield* sql`DELETE FROM recovery_codes WHERE admin_id = ${adminId} AND code_hash = ${hash} RETURNING code_hash`
    return rows.length === 1
  }).pipe(dieOnSqlError)

/** The account's recovery codes not yet used. */
export const recoveryCodesLeft = (adminId: string) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient
    const rows = yield* sql<{ count: number }>`SELECT count(*)::int AS count FROM recovery_codes WHERE admin_id = ${adminId}`
    return rows[0]?.count ?? 0
  }).pipe(dieOnSqlError)

/** How long a code sign-in's second step may be finished. */
export const STEP_MINUTES = 10

/** Keeps a code sign-in's second step: for this account and role, until it expires or is finished. */
export const openStep = (tokenHash: string, adminId: string, role: Role) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient
    yield* sql`
      INSERT INTO sign_in_steps (token_hash, admin_id, role, expires_at)
      VALUES (${tokenHash}, ${adminId}, ${role}, now() + make_interval(mins => ${STEP_MINUTES}::int))`
  }).pipe(dieOnSqlError)

/** A live second step and its account, or undefined. `lock`: held until the transaction ends, so guesses at it take turns. */
export const stepOf = (tokenHash: string, lock = false) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient
    const rows = yield* sql<{ adminId: string; role: Role; tries: number; email: string; name: string | null; accountRole: Role; disabled: boolean }>`
      SELECT s.admin_id, s.role, s.tries, a.email, a.name, a.role AS account_role, a.disabled
      FROM sign_in_steps s JOIN admins a ON a.id = s.admin_id
      WHERE s.token_hash = ${tokenHash} AND s.expires_at > now() AND s.tries < ${OTP_MAX_ATTEMPTS}
      ${lock ? sql`FOR UPDATE OF s` : sql``}`
    return rows[0]
  }).pipe(dieOnSqlError)

/** A wrong recovery code counts against its step; the fifth ends it. */
export const countStepTry = (tokenHash: string) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient
    yield* sql`UPDATE sign_in_steps SET tries = tries + 1 WHERE token_hash = ${tokenHash}`
    yield* sql`DELETE FROM sign_in_steps WHERE token_hash = ${tokenHash} AND tries >= ${OTP_MAX_ATTEMPTS}`
  }).pipe(dieOnSqlError)

/** Finishes a second step: true for the one caller that did. */
export const takeStep = (tokenHash: string) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient
    const rows = yield* sql`DELETE FROM sign_in_steps WHERE token_hash = ${tokenHash} AND expires_at > now() RETURNING token_hash`
    return rows.length === 1
  }).pipe(dieOnSqlError)

/**
 * A super admin's reset (or `npm run admin -- reset-passkeys`): the account's passkeys, recovery
 * codes and open second steps go, and it may sign in with a code alone for `PERSONAL_GRACE_DAYS`
 * to add a passkey. The caller ends its sessions and logs it.
 */
export const resetPasskeys = (adminId: string) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient
    const removed = yield* sql`DELETE FROM passkeys WHERE admin_id = ${adminId} RETURNING id`
    yield* sql`DELETE FROM recovery_codes WHERE admin_id = ${adminId}`
    yield* sql`DELETE FROM sign_in_steps WHERE admin_id = ${adminId}`
    const rows = yield* sql<{ graceUntil: Date }>`
      UPDATE admins SET passkey_grace_until = now() + make_interval(days => ${PERSONAL_GRACE_DAYS}::int)
      WHERE id = ${adminId} RETURNING passkey_grace_until`
    return { removed: removed.length, graceUntil: rows[0]?.graceUntil ?? new Date() }
  }).pipe(dieOnSqlError)
