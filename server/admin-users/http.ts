import { Effect, Stream } from "effect"
import { HttpServerResponse } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { adminMessages } from "../../contract/admin-users.ts"
import { AdminApi } from "../../contract/api.ts"
import { Conflict, NotFound } from "../../contract/common.ts"
import { requireConfirmed, superAdminOnly } from "../auth/roles.ts"
import { csvResponse, pageWindow, paginate, wantsCsv } from "../platform/lists.ts"
import { addAdmin, changeAdmin, findAccount, listAccounts } from "./repository.ts"

// Admin users (docs/api.md, "Admin management"): the accounts, their roles and names, enabled or not.

const accountFields = ["_id", "email", "name", "role", "disabled", "activeSessions", "lastSeenAt", "createdAt", "version"] as const

const oneAccount = (id: string) =>
  Effect.flatMap(findAccount(id), (user) =>
    user === undefined ? Effect.fail(new NotFound({ error: adminMessages.notFound })) : Effect.succeed({ success: true as const, data: { user } })
  )

export const AdminUserHandlers = HttpApiBuilder.group(AdminApi, "adminUsers", (handlers) =>
  handlers
    .handle("list", ({ query }) =>
      Effect.gen(function* () {
        yield* superAdminOnly
        if (yield* wantsCsv(query.format)) {
          // Every admin the search matches: admins are few, one read holds them all.
          const { accounts } = yield* listAccounts({ search: query.search, limit: 100_000, offset: 0 })
          return yield* csvResponse({ name: "admins", fields: accountFields, record: (row: (typeof accounts)[number]) => row, rows: Stream.make(accounts) })
        }
        const { page, limit, offset } = pageWindow(query)
        const { accounts, total } = yield* listAccounts({ search: query.search, limit, offset })
        return HttpServerResponse.jsonUnsafe({ success: true as const, data: { users: accounts, pagination: paginate(page, limit, total) } })
      })
    )
    .handle("create", ({ payload }) =>
      Effect.gen(function* () {
        const session = yield* superAdminOnly
        yield* requireConfirmed
        const made = yield* addAdmin(payload.email, payload.role, payload.name?.trim() ?? null, { session })
        const user = yield* findAccount(made.id)
        // Added just now, by this request: an account missing here is the server's fault, not the caller's.
        if (user === undefined) return yield* Effect.die(new Error(`The admin ${made.id} just added is missing`))
        return { success: true as const, data: { user } }
      })
    )
    .handle("update", ({ params, payload }) =>
      Effect.gen(function* () {
        const session = yield* superAdminOnly
        yield* requireConfirmed
        if (payload.disabled === true && params.id === session.user._id) return yield* new Conflict({ error: adminMessages.self })
        yield* changeAdmin(
          params.id,
          { name: payload.name === undefined ? undefined : (payload.name?.trim() ?? null), role: payload.role, disabled: payload.disabled },
          { version: payload.version }
        )
        return yield* oneAccount(params.id)
      })
    )
    .handle("remove", ({ params, query }) =>
      Effect.gen(function* () {
        const session = yield* superAdminOnly
        yield* requireConfirmed
        if (params.id === session.user._id) return yield* new Conflict({ error: adminMessages.self })
        yield* changeAdmin(params.id, { disabled: true }, { version: query.version })
        return yield* oneAccount(params.id)
      })
    )
)
