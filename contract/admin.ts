import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { Authorization } from "./auth.ts"
import {
  BadRequest,
  Conflict,
  Email,
  Forbidden,
  Id,
  ListFormat,
  LongText,
  NotFound,
  Ok,
  PageNumber,
  PageSize,
  RecordId,
  RequiredText,
  Role,
  SearchText,
  ShortText,
  Text,
  Timestamp,
  Version,
  VersionParam
} from "./common.ts"
import { ipMessages, normalizeIpRange } from "./ip-rules.ts"
import { CsvExport, pageOf } from "./lists.ts"

/**
 * Admin management (docs/product-spec.md §7 "Admin management", docs/api.md): admin users,
 * allowed addresses, sessions, protected data and the site's settings. Super admins only,
 * except each admin's own sessions.
 */

export const MAX_DISPLAY_NAME = 80
export const DisplayName = Schema.String.check(
  Schema.isMinLength(1, { message: "must not be empty" }),
  Schema.isMaxLength(MAX_DISPLAY_NAME, { message: `must be at most ${MAX_DISPLAY_NAME} characters` }),
  Schema.isPattern(/^[^\u0000]*\S[^\u0000]*$/u, { message: "must not be blank" })
)

// ---------------------------------------------------------------------------
// Admin users
// ---------------------------------------------------------------------------

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
  exists: (email: string) => `${email} is already an admin.`,
  notFound: "This admin no longer exists. Reload the list.",
  stale: "This admin was changed by someone else. Reload and try again.",
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
    }).middleware(Authorization).annotate(OpenApi.Summary, "List admins (search over e-mail and name); super admins"),
    HttpApiEndpoint.post("create", "/api/admin/users", {
      payload: AdminAccountInput,
      success: oneAdmin,
      error: [Forbidden, Conflict]
    }).middleware(Authorization).annotate(OpenApi.Summary, "Add an admin (they sign in with a code sent to the e-mail)"),
    HttpApiEndpoint.put("update", "/api/admin/users/:id", {
      params: { id: RecordId },
      payload: AdminAccountUpdate,
      success: oneAdmin,
      error: [Forbidden, Conflict, NotFound]
    }).middleware(Authorization).annotate(
      OpenApi.Summary,
      "Rename, change the role of, disable or enable an admin at the version read; disabling ends their sessions, demoting lowers them"
    ),
    HttpApiEndpoint.delete("remove", "/api/admin/users/:id", {
      params: { id: RecordId },
      query: { version: VersionParam },
      success: oneAdmin,
      error: [Forbidden, Conflict, NotFound]
    }).middleware(Authorization).annotate(OpenApi.Summary, "Disable an admin (the record stays: the activity log names it)")
  )
  .annotate(OpenApi.Title, "Admin users")
  .annotate(OpenApi.Description, "Who may sign in, and with which role.")
{}

// ---------------------------------------------------------------------------
// Allowed addresses
// ---------------------------------------------------------------------------

/**
 * An IPv4 or IPv6 address or CIDR range; the server reads it with `contract/ip-rules.ts` and
 * answers 400 naming the field when it is neither.
 */
export const IpRangeText = Schema.String.check(
  Schema.isMaxLength(64, { message: ipMessages.invalid }),
  Schema.makeFilter((text: string) => normalizeIpRange(text) !== undefined || ipMessages.invalid, {
    // Property tests draw IPv4 addresses and ranges (contract/ip-rules.ts reads both families).
    arbitraryConstraint: { patterns: [{ source: "^(?:(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)\\.){3}(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)(?:\\/(?:3[0-2]|[12]?\\d))?$", flags: "" }] }
  })
)

/** When the allowed-IP list is not empty, admin endpoints answer only these addresses. */
export const AllowedIp = Schema.Struct({
  _id: Id,
  ip: Schema.String,
  description: Schema.String,
  createdBy: Schema.NullOr(Schema.String),
  createdAt: Timestamp
})
export type AllowedIp = typeof AllowedIp.Type

export const AllowedIpInput = Schema.Struct({
  ip: IpRangeText,
  description: Schema.optionalKey(ShortText)
})
export type AllowedIpInput = typeof AllowedIpInput.Type

export const AllowedIpList = Schema.Struct({
  success: Schema.Literal(true),
  data: Schema.Struct({
    ips: Schema.Array(AllowedIp),
    /** The address this request came from, as the server sees it: what a lock-out check compares. */
    yourIp: Schema.String
  })
})

export class AllowedIpsApi extends HttpApiGroup.make("allowedIps")
  .add(
    HttpApiEndpoint.get("list", "/api/admin/ip-management", { success: AllowedIpList, error: [Forbidden] })
      .middleware(Authorization).annotate(OpenApi.Summary, "The allowed addresses, and the caller's; super admins"),
    HttpApiEndpoint.post("create", "/api/admin/ip-management", {
      payload: AllowedIpInput,
      success: Schema.Struct({ success: Schema.Literal(true), data: Schema.Struct({ ip: AllowedIp }) }),
      error: [BadRequest, Forbidden, Conflict]
    }).middleware(Authorization).annotate(OpenApi.Summary, "Allow an address or range (refused when it would shut out the caller)"),
    HttpApiEndpoint.delete("remove", "/api/admin/ip-management/:id", {
      params: { id: RecordId },
      success: Ok,
      error: [Forbidden, Conflict, NotFound]
    }).middleware(Authorization).annotate(OpenApi.Summary, "Remove an allowed address (refused when it would shut out the caller)")
  )
  .annotate(OpenApi.Title, "Allowed addresses")
  .annotate(OpenApi.Description, "When the list is not empty, admin endpoints answer only these addresses.")
{}

// ---------------------------------------------------------------------------
// Sessions
// ---------------------------------------------------------------------------

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
  /** The session this request was made with. */
  current: Schema.Boolean
})
export type AdminSession = typeof AdminSession.Type

export const sessionMessages = {
  notFound: "This session has already ended.",
  notYours: "Only super admins may end other admins' sessions."
} as const

export class SessionsApi extends HttpApiGroup.make("sessions")
  .add(
    HttpApiEndpoint.get("list", "/api/admin/sessions", {
      query: { scope: Schema.optionalKey(Schema.Literals(["mine", "all"])) },
      success: Schema.Struct({ success: Schema.Literal(true), data: Schema.Struct({ sessions: Schema.Array(AdminSession) }) }),
      error: [Forbidden]
    }).middleware(Authorization).annotate(OpenApi.Summary, "Open sessions: the caller's, or (super admins, scope=all) everyone's"),
    HttpApiEndpoint.delete("end", "/api/admin/sessions/:id", {
      params: { id: RecordId },
      success: Ok,
      error: [Forbidden, NotFound]
    }).middleware(Authorization).annotate(OpenApi.Summary, "Sign a session out (one's own; super admins anyone's)"),
    HttpApiEndpoint.post("endOthers", "/api/admin/sessions/end-others", {
      success: Schema.Struct({ success: Schema.Literal(true), data: Schema.Struct({ ended: Schema.Int }) })
    }).middleware(Authorization).annotate(OpenApi.Summary, "Sign out everywhere else: every session of the caller but this one")
  )
  .annotate(OpenApi.Title, "Sessions")
  .annotate(OpenApi.Description, "Where staff are signed in.")
{}

// ---------------------------------------------------------------------------
// Protected data and the site's settings
// ---------------------------------------------------------------------------

/** A kind of protected record: lower-case words joined by hyphens (`api-key`, `wallet`). */
export const ProtectedDataType = Schema.String.check(
  Schema.isMaxLength(40, { message: "must be at most 40 characters" }),
  Schema.isPattern(/^[a-z0-9]+(-[a-z0-9]+)*$/u, { message: "must be lower-case words joined by hyphens, such as api-key" })
)

export const ProtectedRecord = Schema.Struct({
  _id: Id,
  type: Schema.String,
  key: Schema.String,
  value: Schema.String,
  description: Schema.String,
  createdAt: Timestamp,
  updatedAt: Timestamp,
  version: Version
})
export type ProtectedRecord = typeof ProtectedRecord.Type

export const ProtectedRecordInput = Schema.Struct({
  type: ProtectedDataType,
  key: RequiredText,
  value: Text(10_000),
  description: Schema.optionalKey(ShortText)
})
export const ProtectedRecordUpdate = Schema.Struct({ ...ProtectedRecordInput.fields, version: Version })

export const protectedMessages = {
  exists: "A record of this type with this key exists already.",
  notFound: "This record no longer exists. Reload the list.",
  stale: "This record was changed by someone else. Reload and try again."
} as const

const oneProtected = Schema.Struct({ success: Schema.Literal(true), data: Schema.Struct({ record: ProtectedRecord }) })

export class ProtectedDataApi extends HttpApiGroup.make("protectedData")
  .add(
    HttpApiEndpoint.get("list", "/api/admin/protected-data", {
      query: { type: Schema.optionalKey(ProtectedDataType) },
      success: Schema.Struct({ success: Schema.Literal(true), data: Schema.Struct({ records: Schema.Array(ProtectedRecord) }) }),
      error: [Forbidden]
    }).middleware(Authorization).annotate(OpenApi.Summary, "Protected records, of one type or all; super admins"),
    HttpApiEndpoint.post("create", "/api/admin/protected-data", { payload: ProtectedRecordInput, success: oneProtected, error: [Forbidden, Conflict] })
      .middleware(Authorization).annotate(OpenApi.Summary, "Add a protected record (its value is never logged)"),
    HttpApiEndpoint.put("update", "/api/admin/protected-data/:id", {
      params: { id: RecordId },
      payload: ProtectedRecordUpdate,
      success: oneProtected,
      error: [Forbidden, Conflict, NotFound]
    }).middleware(Authorization).annotate(OpenApi.Summary, "Replace a protected record at the version read"),
    HttpApiEndpoint.delete("remove", "/api/admin/protected-data/:id", {
      params: { id: RecordId },
      query: { version: VersionParam },
      success: Ok,
      error: [Forbidden, Conflict, NotFound]
    }).middleware(Authorization).annotate(OpenApi.Summary, "Delete a protected record at the version read")
  )
  .annotate(OpenApi.Title, "Protected data")
  .annotate(OpenApi.Description, "Typed key/value records only super admins read; their values never reach a log.")
{}

const optionalLink = Schema.optionalKey(Text(2_048))

/** The site's settings, one document: what the public site shows around its content. */
export const SiteSettingsFields = Schema.Struct({
  siteName: RequiredText,
  tagline: ShortText,
  contactEmail: Schema.Union([Email, Schema.Literal("")]),
  announcement: LongText,
  maintenanceMode: Schema.Boolean,
  social: Schema.Struct({ twitter: optionalLink, telegram: optionalLink, discord: optionalLink, website: optionalLink })
})
export type SiteSettingsFields = typeof SiteSettingsFields.Type

export const SiteSettings = Schema.Struct({ ...SiteSettingsFields.fields, updatedAt: Schema.NullOr(Timestamp), version: Schema.Int })
export type SiteSettings = typeof SiteSettings.Type

export const SiteSettingsUpdate = Schema.Struct({
  ...SiteSettingsFields.fields,
  /** The version read; 0 while the settings were never saved. */
  version: Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 2_147_483_647 }, { message: "must be a version number" }))
})

export const settingsMessages = { stale: "The settings were changed by someone else. Reload and try again." } as const

const settingsAnswer = Schema.Struct({ success: Schema.Literal(true), data: Schema.Struct({ settings: SiteSettings }) })

export class SiteSettingsApi extends HttpApiGroup.make("siteSettings")
  .add(
    HttpApiEndpoint.get("get", "/api/admin/ecosystem", { success: settingsAnswer })
      .middleware(Authorization).annotate(OpenApi.Summary, "The site's settings (every admin reads them)"),
    HttpApiEndpoint.put("update", "/api/admin/ecosystem", { payload: SiteSettingsUpdate, success: settingsAnswer, error: [Forbidden, Conflict] })
      .middleware(Authorization).annotate(OpenApi.Summary, "Replace the site's settings at the version read; super admins")
  )
  .annotate(OpenApi.Title, "Site settings")
  .annotate(OpenApi.Description, "The public site's settings as one versioned document.")
{}

