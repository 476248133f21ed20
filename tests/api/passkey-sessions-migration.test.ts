import { Effect } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { describe, expect, it } from "vitest"
import { CurrentSession } from "../../contract/auth.ts"
import { migrate } from "../../server/platform/migrations.ts"
import { endCodeOnlySessions } from "../../server/sessions/repository.ts"
import { engines } from "../support/database.ts"
import { beforeMigration } from "../support/migrations.ts"

/**
 * Sessions open when migration 0022 labelled how each was signed in (docs/security.md, "Required by
 * role"): each takes the method its sign-in's log names, so one finished with a recovery code is
 * neither a passkey session nor a code-only one that a new rule ends.
 */
describe.each(engines)("sessions open across migration 0022 on $name", (engine) => {
  it("keep how they were signed in, and a new rule ends only the code-only ones", async () => {
    const admin = "11111111-1111-4111-8111-111111111111"
    const sessions = {
      code: "22222222-2222-4222-8222-222222222221",
      recovery: "22222222-2222-4222-8222-222222222222",
      passkey: "22222222-2222-4222-8222-222222222223",
      stepped: "22222222-2222-4222-8222-222222222224"
    }
    const rows = await beforeMigration(
      engine,
      "0022",
      Effect.gen(function* () {
        const sql = yield* SqlClient
        yield* sql`INSERT INTO admins (id, email, role) VALUES (${admin}, 'kept@example.com', 'moderator')`
        yield* sql`INSERT INTO passkeys (id, admin_id, credential_id, public_key, counter, transports, name, backed_up, role)
        VALUES ('33333333-3333-4333-8333-333333333333', ${admin}, 'cred', '\\x00'::bytea, 0, 'internal', 'Phone', false, 'moderator')`
        const opened: ReadonlyArray<readonly [string, string, boolean]> = [
          [sessions.code, "code", false],
          [sessions.recovery, "code+recovery", false],
          [sessions.passkey, "passkey", true],
          [sessions.stepped, "code+passkey", true]
        ]
        for (const [id, method, passkeyUsed] of opened) {
          yield* sql`INSERT INTO sessions (id, token_hash, admin_id, role, expires_at, last_passkey_at)
          VALUES (${id}, ${`hash-${id}`}, ${admin}, 'moderator', now() + interval '12 hours', ${passkeyUsed ? new Date() : null})`
          yield* sql`INSERT INTO activity_log (actor_id, actor_email, action, entity, entity_id, to_state, details)
          VALUES (${admin}, 'kept@example.com', 'session.sign_in', 'session', ${id}, 'moderator', ${JSON.stringify({ method })}::jsonb)`
        }
        yield* migrate
        const user = { _id: admin, email: "chief@example.com", name: null, role: "super_admin" as const, grantedRole: "super_admin" as const }
        yield* endCodeOnlySessions("moderator", null).pipe(Effect.provideService(CurrentSession, { id: sessions.code, user, ip: "127.0.0.1" }))
        return yield* sql<{ id: string; signInMethod: string; ended: boolean }>`
        SELECT id::text AS id, sign_in_method, revoked_at IS NOT NULL AS ended FROM sessions ORDER BY id`
      })
    )
    expect(rows).toEqual([
      { id: sessions.code, signInMethod: "code", ended: true },
      { id: sessions.recovery, signInMethod: "code+recovery", ended: false },
      { id: sessions.passkey, signInMethod: "passkey", ended: false },
      { id: sessions.stepped, signInMethod: "code+passkey", ended: false }
    ])
  })
})
