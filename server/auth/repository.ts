import { Effect } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { timingSafeEqual } from "node:crypto"
import type { Role } from "../../contract/common.ts"
import { PERSONAL_GRACE_DAYS, type PasskeyRule } from "../../contract/passkeys.ts"
import { recordAdminActivity } from "../platform/activity-log.ts"
import { dieOnSqlError, inTransaction } from "../platform/database.ts"
import { KNOWN_BROWSER_DAYS, OTP_MAX_ATTEMPTS, OTP_TTL_MINUTES } from "./policy.ts"

/**
 * The sign-in's rows (docs/security.md, "Sign-in"): codes, the attempts that may be typed
 * against them, and the browsers an e-mail has signed in from. Codes of one e-mail are kept
 * apart by channel: `""` for every browser not known for that e-mail, a known browser's key
 * hash for that browser alone, so strangers' requests never touch a known browser's codes.
 */

/** The channel a browser key names for `email`: its hash when that browser signed in as `email` lately, else `""`. */
export const channelOf = (email: string, browserHash: string | undefined) =>
  Effect.gen(function* () {
    if (browserHash === undefined) return ""
    const sql = yield* SqlClient
    const rows = yield* sql<{ keyHash: string }>`
      SELECT key_hash FROM known_browsers
      WHERE key_hash = ${browserHash} AND email = ${email} AND expires_at > now()`
    return rows[0]?.keyHash ?? ""
  }).pipe(dieOnSqlError)

/** Stores a new code for a channel with its first attempt. */
export const storeCode = (code: { id: string; email: string; channel: string; codeHash: string }, attempt: { tokenHash: string; role: Role }) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient
    yield* sql`
      INSERT INTO sign_in_codes (id, email, channel, code_hash, expires_at)
      VALUES (${code.id}, ${code.email}, ${code.channel}, ${code.codeHash}, now() + make_interval(mins => ${OTP_TTL_MINUTES}::int))`
    yield* sql`INSERT INTO sign_in_attempts (token_hash, code_id, role) VALUES (${attempt.tokenHash}, ${code.id}, ${attempt.role})`
  }).pipe(dieOnSqlError)

/**
 * A new attempt on the channel's newest live code (a request within the minute mails nothing,
 * so the code already mailed is the one to type). False when the channel has none.
 */
export const joinCode = (email: string, channel: string, attempt: { tokenHash: string; role: Role }) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient
    const rows = yield* sql`
      INSERT INTO sign_in_attempts (token_hash, code_id, role)
      SELECT ${attempt.tokenHash}, id, ${attempt.role} FROM sign_in_codes
      WHERE email = ${email} AND channel = ${channel} AND expires_at > now()
      ORDER BY created_at DESC LIMIT 1
      RETURNING token_hash`
    return rows.length > 0
  }).pipe(dieOnSqlError)

const sameHash = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b))

export interface Guess {
  readonly matched: boolean
  readonly role: Role
  readonly tries: number
  readonly codeId: string
}

/**
 * Counts a guess against the attempt it names and compares it with that attempt's code; run it
 * in the transaction that uses the code. The code's row is locked first, so guesses at every
 * attempt on one code take turns (and in one order: no two can wait on each other), each seeing
 * the count the one before left: no more than `OTP_MAX_ATTEMPTS` are compared per attempt, and
 * other attempts, a stranger's, never count against this one. Undefined: no live attempt of
 * that name for `email`.
 */
export const countGuess = (email: string, attemptHash: string, codeHash: string) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient
    const codes = yield* sql<{ id: string; codeHash: string }>`
      SELECT c.id, c.code_hash FROM sign_in_codes c JOIN sign_in_attempts a ON a.code_id = c.id
      WHERE a.token_hash = ${attemptHash} AND c.email = ${email} AND c.expires_at > now()
      FOR UPDATE OF c`
    const live = codes[0]
    if (live === undefined) return undefined
    const matched = sameHash(live.codeHash, codeHash)
    const rows = yield* sql<{ role: Role; tries: number }>`
      UPDATE sign_in_attempts SET tries = ${matched ? sql`${OTP_MAX_ATTEMPTS}` : sql`tries + 1`}
      WHERE token_hash = ${attemptHash} AND tries < ${OTP_MAX_ATTEMPTS}
      RETURNING role, tries`
    const row = rows[0]
    if (row === undefined) return undefined
    // An attempt that can no longer be guessed goes; its code stays for the attempts beside it.
    if (!matched && row.tries >= OTP_MAX_ATTEMPTS) yield* sql`DELETE FROM sign_in_attempts WHERE token_hash = ${attemptHash}`
    return { matched, role: row.role, tries: row.tries, codeId: live.id } satisfies Guess
  }).pipe(dieOnSqlError)

/**
 * Uses a code up, with every attempt on it: true for the one caller that did, so two attempts
 * guessing the same code right at once open one session between them.
 */
export const useCode = (codeId: string) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient
    const rows = yield* sql`DELETE FROM sign_in_codes WHERE id = ${codeId} RETURNING id`
    return rows.length > 0
  }).pipe(dieOnSqlError)

/** Remembers that this browser signed in as `email` (or that it did again). */
export const rememberBrowser = (browserHash: string, email: string) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient
    yield* sql`
      INSERT INTO known_browsers (key_hash, email, expires_at)
      VALUES (${browserHash}, ${email}, now() + make_interval(days => ${KNOWN_BROWSER_DAYS}::int))
      ON CONFLICT (key_hash, email) DO UPDATE SET last_used_at = now(), expires_at = EXCLUDED.expires_at`
  }).pipe(dieOnSqlError)

/** A passkey's row as the ceremonies need it (docs/security.md, "Passkeys"). */
export interface PasskeyRow {
  readonly id: string
  readonly adminId: string
  readonly credentialId: string
  readonly publicKey: Uint8Array
  readonly counter: number
  readonly transports: string
  readonly name: string
  readonly backedUp: boolean
  /** The role of the session that added it: it signs in with no more. */
  readonly role: Role
  /** The session that added it: it never confirms that session (docs/security.md, "Confirm what matters"). */
  readonly sessionId: string | null
  readonly createdAt: Date
  readonly lastUsedAt: Date | null
}

/** The person's passkeys, newest first. */
export const passkeysOf = (adminId: string) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient
    return yield* sql<PasskeyRow>`
      SELECT id, admin_id, credential_id, public_key, counter::float8 AS counter, transports, name, backed_up, role, session_id, created_at, last_used_at
      FROM passkeys WHERE admin_id = ${adminId} ORDER BY created_at DESC, id`
  }).pipe(dieOnSqlError)

/** What a challenge was given for: adding a passkey, signing in with one, a code sign-in's second step. */
export type ChallengePurpose = "register" | "sign_in" | "second_step" | "confirm"

/** A challenge for `purpose`, for `adminId` (none: a sign-in's), usable once until it expires. */
export const keepChallenge = (challenge: string, purpose: ChallengePurpose, adminId: string | null, ttlSeconds: number) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient
    yield* sql`
      INSERT INTO passkey_challenges (challenge, admin_id, purpose, expires_at)
      VALUES (${challenge}, ${adminId}, ${purpose}, now() + make_interval(secs => ${ttlSeconds}))`
  }).pipe(dieOnSqlError)

/** Takes the challenge if it is live and was given for this purpose and person: true once, whoever asks at once. */
export const takeChallenge = (challenge: string, purpose: ChallengePurpose, adminId: string | null) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient
    const taken = yield* sql<{ challenge: string }>`
      DELETE FROM passkey_challenges
      WHERE challenge = ${challenge} AND purpose = ${purpose} AND expires_at > now()
        AND admin_id IS NOT DISTINCT FROM ${adminId}
      RETURNING challenge`
    return taken.length === 1
  }).pipe(dieOnSqlError)

/** Whether another of the person's passkeys (not `except`) has this name, whatever its case. */
const nameTaken = (adminId: string, name: string, except: string | null) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient
    const rows = yield* sql<{ taken: boolean }>`
      SELECT EXISTS (SELECT 1 FROM passkeys WHERE admin_id = ${adminId} AND lower(name) = lower(${name})
        AND id IS DISTINCT FROM ${except}::uuid) AS taken`
    return rows[0]?.taken === true
  })

/**
 * Adds the person's passkey, in the activity log, unless they hold `max` already or one of that
 * name (two additions at once count each other: the account's row is held) or its credential is
 * registered (to anyone).
 */
export const addOwnPasskey = (row: Omit<PasskeyRow, "createdAt" | "lastUsedAt">, max: number) =>
  inTransaction(
    Effect.gen(function* () {
      const sql = yield* SqlClient
      yield* sql`SELECT id FROM admins WHERE id = ${row.adminId} FOR UPDATE`
      const held = yield* sql<{ count: number }>`SELECT count(*)::int AS count FROM passkeys WHERE admin_id = ${row.adminId}`
      if ((held[0]?.count ?? 0) >= max) return "too many" as const
      if (yield* nameTaken(row.adminId, row.name, null)) return "name taken" as const
      const added = yield* sql<{ createdAt: Date }>`
        INSERT INTO passkeys (id, admin_id, credential_id, public_key, counter, transports, name, backed_up, role, session_id)
        VALUES (${row.id}, ${row.adminId}, ${row.credentialId}, ${row.publicKey}, ${row.counter}, ${row.transports}, ${row.name}, ${row.backedUp}, ${row.role},
                ${row.sessionId})
        ON CONFLICT (credential_id) DO NOTHING
        RETURNING created_at`
      const createdAt = added[0]?.createdAt
      if (createdAt === undefined) return "known" as const
      yield* recordAdminActivity({ action: "session.passkey_add", entityId: row.id, details: { name: row.name } })
      return { ...row, createdAt, lastUsedAt: null }
    })
  ).pipe(dieOnSqlError)

/**
 * Removes one of the person's passkeys, in the activity log (its name back); false when they hold none of that id,
 * "last" when `keepOne` (their role requires one) and it is their last: counted with the account's
 * row held, so two removals at once cannot take the last two.
 */
export const removeOwnPasskey = (adminId: string, id: string, keepOne: boolean) =>
  inTransaction(
    Effect.gen(function* () {
      const sql = yield* SqlClient
      yield* sql`SELECT id FROM admins WHERE id = ${adminId} FOR UPDATE`
      const held = yield* sql<{ count: number; mine: number }>`
        SELECT count(*)::int AS count, count(*) FILTER (WHERE id = ${id})::int AS mine FROM passkeys WHERE admin_id = ${adminId}`
      if (keepOne && (held[0]?.mine ?? 0) > 0 && (held[0]?.count ?? 0) <= 1) return "last" as const
      const removed = yield* sql<{ name: string }>`DELETE FROM passkeys WHERE id = ${id} AND admin_id = ${adminId} RETURNING name`
      const gone = removed[0]
      if (gone === undefined) return false
      yield* recordAdminActivity({ action: "session.passkey_remove", entityId: id, details: {} })
      return gone
    })
  ).pipe(dieOnSqlError)

/** The passkey with this credential id and its account, for a sign-in. */
export const passkeyForSignIn = (credentialId: string) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient
    const rows = yield* sql<PasskeyRow & { readonly email: string; readonly adminName: string | null; readonly accountRole: Role; readonly disabled: boolean }>`
      SELECT p.id, p.admin_id, p.credential_id, p.public_key, p.counter::float8 AS counter, p.transports, p.name, p.backed_up, p.role,
             p.session_id, p.created_at, p.last_used_at, a.email, a.name AS admin_name, a.role AS account_role, a.disabled
      FROM passkeys p JOIN admins a ON a.id = p.admin_id WHERE p.credential_id = ${credentialId}`
    return rows[0]
  }).pipe(dieOnSqlError)

/** A passkey signed a sign-in: its counter moves on and it was used now. */
export const passkeyUsed = (id: string, counter: number) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient
    // Never backwards: two sign-ins at once must not undo the later counter (a copy's tell).
    yield* sql`UPDATE passkeys SET counter = GREATEST(counter, ${counter}), last_used_at = now() WHERE id = ${id}`
  }).pipe(dieOnSqlError)

/**
 * Renames one of the person's passkeys, in the activity log; undefined when they hold none of that
 * id, "name taken" when another of theirs has the name (two renames at once: the account's row is held).
 */
export const renameOwnPasskey = (adminId: string, id: string, name: string) =>
  inTransaction(
    Effect.gen(function* () {
      const sql = yield* SqlClient
      yield* sql`SELECT id FROM admins WHERE id = ${adminId} FOR UPDATE`
      if (yield* nameTaken(adminId, name, id)) return "name taken" as const
      const rows = yield* sql<PasskeyRow & { readonly before: string }>`
        UPDATE passkeys p SET name = ${name} FROM (SELECT id, name AS before FROM passkeys WHERE id = ${id} AND admin_id = ${adminId} FOR UPDATE) old
        WHERE p.id = old.id
        RETURNING p.id, p.admin_id, p.credential_id, p.public_key, p.counter::float8 AS counter, p.transports, p.name, p.backed_up, p.role,
                  p.session_id, p.created_at, p.last_used_at, old.before`
      const row = rows[0]
      if (row === undefined) return undefined
      if (row.before !== name) yield* recordAdminActivity({ action: "session.passkey_rename", entityId: id, fromState: row.before, toState: name, details: {} })
      return row
    })
  ).pipe(dieOnSqlError)

// Passkeys required by role (docs/security.md, "Passkeys"): each role's rule, each account's own
// grace, the accounts' recovery codes and a code sign-in's second step. Rows only: the sign-in
// (sign-in.ts), the passkey sign-in (passkey-sign-in.ts) and the passkeys' handlers decide.

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
 * transaction; the account's role as it is now (a session's copy may be seconds old).
 */
export const passkeyRequirement = (adminId: string) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient
    const rows = yield* sql<{ required: boolean; dueBy: Date | null; passkeys: number; recoveryCodes: number }>`
      SELECT coalesce(r.required, false) AS required,
             CASE WHEN greatest(r.grace_until, a.passkey_grace_until) > now() THEN greatest(r.grace_until, a.passkey_grace_until) END AS due_by,
             (SELECT count(*)::int FROM passkeys p WHERE p.admin_id = a.id) AS passkeys,
             (SELECT count(*)::int FROM recovery_codes c WHERE c.admin_id = a.id) AS recovery_codes
      FROM admins a LEFT JOIN passkey_rules r ON r.role = a.role
      WHERE a.id = ${adminId}`
    const row = rows[0]
    return row === undefined ? { required: false, dueBy: null, passkeys: 0, recoveryCodes: 0 } : row
  }).pipe(dieOnSqlError)

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
 * to add a passkey. The caller ends its sessions and logs it. Undefined: no such account.
 */
export const resetPasskeys = (adminId: string) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient
    const removed = yield* sql`DELETE FROM passkeys WHERE admin_id = ${adminId} RETURNING id`
    yield* sql`DELETE FROM recovery_codes WHERE admin_id = ${adminId}`
    yield* sql`DELETE FROM sign_in_steps WHERE admin_id = ${adminId}`
    const rows = yield* sql<{ graceUntil: Date }>`
      UPDATE admins SET passkey_grace_until = now() + make_interval(days => ${PERSONAL_GRACE_DAYS}::int)
      WHERE id = ${adminId} RETURNING passkey_grace_until AS grace_until`
    const graceUntil = rows[0]?.graceUntil
    return graceUntil === undefined ? undefined : { removed: removed.length, graceUntil }
  }).pipe(dieOnSqlError)

/** Whether the passkey is still the account's, its row held until the transaction ends (a reset racing a sign-in waits, then ends the session). */
export const holdPasskey = (id: string) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient
    const rows = yield* sql`SELECT id FROM passkeys WHERE id = ${id} FOR SHARE`
    return rows.length === 1
  }).pipe(dieOnSqlError)
