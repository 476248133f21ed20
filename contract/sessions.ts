import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { Authorization } from "./auth.ts"
import { Forbidden, Id, NotFound, Ok, RecordId, Role, Timestamp } from "./common.ts"

// Where staff are signed in (docs/product-spec.md §7, docs/api.md): each admin's own sessions; super admins see everyone's.

export const AdminSession = Schema.Struct({
  _id: Id,
  adminId: Id,
  email: Schema.String,
  name: Schema.NullOr(Schema.String),
  role: Role,
  ip: Schema.NullOr(Schema.String),
  userAgent: Schema.NullOr(Schema.String),
  createdAt: Timestamp,
  lastSeenAt: Timestamp,
  expiresAt: Timestamp,
  /** When a passkey was last used in this session (docs/security.md, "Passkeys"); null: never. */
  lastPasskeyAt: Schema.NullOr(Timestamp),
  /** The session this request was made with. */
  current: Schema.Boolean
})
export type AdminSession = typeof AdminSession.Type

export const sessionMessages = {
  notFound: "This session has already ended.",
  notYours: "Only super admins may end other admins' sessions.",
  notAll: "Only super admins may see every admin's sessions."
} as const

export class SessionsApi extends HttpApiGroup.make("sessions")
  .add(
    HttpApiEndpoint.get("list", "/api/admin/sessions", {
      query: { scope: Schema.optionalKey(Schema.Literals(["mine", "all"])) },
      success: Schema.Struct({ success: Schema.Literal(true), data: Schema.Struct({ sessions: Schema.Array(AdminSession) }) }),
      error: [Forbidden]
    }).annotate(OpenApi.Summary, "Open sessions: the caller's, or (super admins, scope=all) everyone's"),
    HttpApiEndpoint.delete("end", "/api/admin/sessions/:id", {
      params: { id: RecordId },
      success: Ok,
      error: [Forbidden, NotFound]
    }).annotate(OpenApi.Summary, "Sign a session out (one's own; super admins anyone's)"),
    HttpApiEndpoint.post("endOthers", "/api/admin/sessions/end-others", {
      success: Schema.Struct({ success: Schema.Literal(true), data: Schema.Struct({ ended: Schema.Int }) })
    }).annotate(OpenApi.Summary, "Sign out everywhere else: every session of the caller but this one")
  )
  .middleware(Authorization)
  .annotate(OpenApi.Title, "Sessions")
  .annotate(OpenApi.Description, "Where staff are signed in.") {}
