import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { AdminApi } from "../../contract/api.ts"
import { BadRequest } from "../../contract/common.ts"
import { requireConfirmed, superAdminOnly } from "../auth/roles.ts"
import { allowIp, listAllowedIps, removeAllowedIp } from "./repository.ts"

// The allowed addresses (docs/api.md, "Admin management"): who may reach the admin endpoints.

export const AllowedIpHandlers = HttpApiBuilder.group(AdminApi, "allowedIps", (handlers) =>
  handlers
    .handle("list", () =>
      Effect.gen(function* () {
        const session = yield* superAdminOnly
        return { success: true as const, data: { ips: yield* listAllowedIps, yourIp: session.ip } }
      })
    )
    .handle("create", ({ payload }) =>
      Effect.gen(function* () {
        const session = yield* superAdminOnly
        yield* requireConfirmed
        const ip = yield* allowIp(payload.ip, payload.description ?? "", { session }).pipe(
          Effect.catchTag("IpInvalid", (error) =>
            Effect.fail(new BadRequest({ error: `ip ${error.message}`, issues: [{ path: "ip", message: error.message }] }))
          )
        )
        return { success: true as const, data: { ip } }
      })
    )
    .handle("remove", ({ params }) =>
      Effect.gen(function* () {
        const session = yield* superAdminOnly
        yield* requireConfirmed
        yield* removeAllowedIp(params.id, { session })
        return { success: true as const }
      })
    )
)
