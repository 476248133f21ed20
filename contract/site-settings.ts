import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { Authorization } from "./auth.ts"
import { Conflict, Email, Forbidden, LongText, RequiredText, ShortText, Text, Timestamp } from "./common.ts"

// The site's settings (docs/product-spec.md §7, docs/api.md): one versioned document. Super admins change it.

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

export const settingsMessages = { stale: "The settings were changed by someone else since you read it." } as const

const settingsAnswer = Schema.Struct({ success: Schema.Literal(true), data: Schema.Struct({ settings: SiteSettings }) })

export class SiteSettingsApi extends HttpApiGroup.make("siteSettings")
  .add(
    HttpApiEndpoint.get("get", "/api/admin/ecosystem", { success: settingsAnswer }).annotate(OpenApi.Summary, "The site's settings (every admin reads them)"),
    HttpApiEndpoint.put("update", "/api/admin/ecosystem", { payload: SiteSettingsUpdate, success: settingsAnswer, error: [Forbidden, Conflict] }).annotate(
      OpenApi.Summary,
      "Replace the site's settings at the version read; super admins"
    )
  )
  .middleware(Authorization)
  .annotate(OpenApi.Title, "Site settings")
  .annotate(OpenApi.Description, "The public site's settings as one versioned document.") {}
