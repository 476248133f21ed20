import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { sessionMessages } from "../../contract/sessions.ts"
import { AdminApi } from "../../contract/api.ts"
import { CurrentSession } from "../../contract/auth.ts"
import { NotFound } from "../../contract/common.ts"
import { requireSuperAdmin } from "../auth/roles.ts"
import { endSessions, liveSessions, openSessionOwner, otherOpenSessions, sessionOf } from "./repository.ts"

// Where staff are signed in (docs/api.md, "Admin management"), and ending those sessions.
export const SessionHandlers = HttpApiBuilder.group(AdminApi, "sessions", (handlers) =>
  handlers
    .handle("list", ({ query }) =>
      Effect.gen(function* () {
        const session = yield* CurrentSession
        if (query.scope === "all") yield* requireSuperAdmin(sessionMessages.notAll)
        const rows = yield* liveSessions(query.scope === "all" ? undefined : session.user._id)
        return { success: true as const, data: { sessions: rows.map(sessionOf(session.id)) } }
      })
    )
    .handle("end", ({ params }) =>
      Effect.gen(function* () {
        const session = yield* CurrentSession
        const target = yield* openSessionOwner(params.id)
        if (target === undefined) return yield* new NotFound({ error: sessionMessages.notFound })
        if (target.adminId !== session.user._id) yield* requireSuperAdmin(sessionMessages.notYours)
        if ((yield* endSessions([params.id])) === 0) return yield* new NotFound({ error: sessionMessages.notFound })
        return { success: true as const }
      })
    )
    .handle("endOthers", () =>
      Effect.gen(function* () {
        const session = yield* CurrentSession
        const others = yield* otherOpenSessions(session.user._id, session.id)
        return { success: true as const, data: { ended: yield* endSessions(others) } }
      })
    )
)
