import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { Authorization } from "./auth.ts"
import {
  Conflict,
  Email,
  Forbidden,
  Id,
  ListFormat,
  NotFound,
  PageNumber,
  PageSize,
  RecordId,
  Role,
  SearchText,
  Timestamp,
  Version,
  VersionParam
} from "./common.ts"
import { CsvExport, pageOf } from "./lists.ts"

// Admin users (docs/product-spec.md §7 "Admin management", docs/api.md): accounts, roles, display names. Super admins only.

export const MAX_DISPLAY_NAME = 80
export const DisplayName = Schema.String.check(
  Schema.isMinLength(1, { message: "must not be empty" }),
  Schema.isMaxLength(MAX_DISPLAY_NAME, { message: `must be at most ${MAX_DISPLAY_NAME} characters` }),
  Schema.isPattern(/^[^\u0000]*\S[^\u0000]*$/u, { message: "must not be blank" })
)

export const AdminAccount = Schema.Struct({
  _id: Id,
  email: Schema.String,
  name: Schema.NullOr(Schema.String),
  role: Role,
  disabled: Schema.Boolean,
  /** Sessions open now. */
  activeSessions: Schema.Int,
  lastSeenAt: Schema.NullOr(Timestamp),
  createdAt: Timestamp,
  updatedAt: Timestamp,
  version: Version
})
export type AdminAccount = typeof AdminAccount.Type

export const AdminAccountInput = Schema.Struct({
  email: Email,
  name: Schema.optionalKey(Schema.NullOr(DisplayName)),
  role: Role
})
export type AdminAccountInput = typeof AdminAccountInput.Type

export const AdminAccountUpdate = Schema.Struct({
  name: Schema.optionalKey(Schema.NullOr(DisplayName)),
  role: Schema.optionalKey(Role),
  disabled: Schema.optionalKey(Schema.Boolean),
  version: Version
})
export type AdminAccountUpdate = typeof AdminAccountUpdate.Type

export const adminMessages = {
  superOnly: "Only super admins may manage admins, allowed addresses, protected data and settings.",
  exists: (email: string) => `An admin with the e-mail ${email} exists already.`,
  notFound: "This admin no longer exists. Reload the list.",
  stale: "This admin was changed by someone else since you read it.",
  lastSuperAdmin: "The last enabled super admin can't be disabled or demoted. Make another super admin first.",
  self: "You can't disable your own account; ask another super admin."
} as const

const oneAdmin = Schema.Struct({ success: Schema.Literal(true), data: Schema.Struct({ user: AdminAccount }) })

export class AdminUsersApi extends HttpApiGroup.make("adminUsers")
  .add(
    HttpApiEndpoint.get("list", "/api/admin/users", {
      query: {
        page: Schema.optionalKey(PageNumber),
        limit: Schema.optionalKey(PageSize),
        search: Schema.optionalKey(SearchText),
        format: Schema.optionalKey(ListFormat)
      },
      success: [pageOf("users", AdminAccount), CsvExport],
      error: [Forbidden]
    }).annotate(OpenApi.Summary, "List admins (search over e-mail and name); super admins"),
    HttpApiEndpoint.post("create", "/api/admin/users", {
      payload: AdminAccountInput,
      success: oneAdmin,
      error: [Forbidden, Conflict]
    }).annotate(OpenApi.Summary, "Add an admin (they sign in with a code sent to the e-mail)"),
    HttpApiEndpoint.put("update", "/api/admin/users/:id", {
      params: { id: RecordId },
      payload: AdminAccountUpdate,
      success: oneAdmin,
      error: [Forbidden, Conflict, NotFound]
    }).annotate(
      OpenApi.Summary,
      "Rename, change the role of, disable or enable an admin at the version read; disabling ends their sessions, demoting lowers them"
    ),
    HttpApiEndpoint.delete("remove", "/api/admin/users/:id", {
      params: { id: RecordId },
      query: { version: VersionParam },
      success: oneAdmin,
      error: [Forbidden, Conflict, NotFound]
    }).annotate(OpenApi.Summary, "Disable an admin (the record stays: the activity log names it)")
  )
  .middleware(Authorization)
  .annotate(OpenApi.Title, "Admin users")
  .annotate(OpenApi.Description, "Who may sign in, and with which role.") {}
