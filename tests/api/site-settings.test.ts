import { describe, expect, it } from "vitest"
import type { SiteSettings } from "../../contract/site-settings.ts"
import { engines } from "../support/database.ts"
import { call } from "../support/http.ts"
import { settingsServer } from "../support/settings.ts"

describe.each(engines)("site settings on $name", (engine) => {
  const { staff, url, superToken } = settingsServer(engine)

  it("keeps the site's settings as one versioned document only super admins change", async () => {
    const token = await superToken()
    const read = await call(url(), "GET", "/api/admin/ecosystem", { token: staff.moderator })
    expect(read.status).toBe(200)
    const settings = (read.body.data as { settings: SiteSettings }).settings
    const { updatedAt: _, version, ...fields } = settings
    const next = { ...fields, tagline: "Everything Pi", maintenanceMode: true, social: { telegram: "https://t.me/pi" }, version }
    expect((await call(url(), "PUT", "/api/admin/ecosystem", { token: staff.admin, body: next })).status).toBe(403)
    const saved = await call(url(), "PUT", "/api/admin/ecosystem", { token, body: next })
    expect(saved.status, saved.text).toBe(200)
    expect((saved.body.data as { settings: SiteSettings }).settings).toMatchObject({ tagline: "Everything Pi", maintenanceMode: true, version: version + 1 })
    expect((await call(url(), "PUT", "/api/admin/ecosystem", { token, body: next })).status).toBe(409)
    expect((await call(url(), "PUT", "/api/admin/ecosystem", { token, body: { ...next, contactEmail: "nope", version: version + 1 } })).status).toBe(400)
  })
})
