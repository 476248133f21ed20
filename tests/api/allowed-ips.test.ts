import { describe, expect, it } from "vitest"
import type { AllowedIp } from "../../contract/allowed-ips.ts"
import { ipMessages } from "../../contract/ip-rules.ts"
import { clearAllowedIps } from "../../server/allowed-ips/repository.ts"
import { engines } from "../support/database.ts"
import { call } from "../support/http.ts"
import { freshEmail, settingsServer } from "../support/settings.ts"

describe.each(engines)("allowed addresses on $name", (engine) => {
  const { staff, url, superToken, create, signIn, check, adminScript } = settingsServer(engine)

  it("answers only allowed addresses (IPv4, IPv6, CIDR) once the list has one, and refuses a lock-out", async () => {
    for (const other of [staff.admin, staff.moderator]) {
      expect((await call(url(), "GET", "/api/admin/ip-management", { token: other })).status).toBe(403)
      expect((await call(url(), "POST", "/api/admin/ip-management", { token: other, body: { ip: "0.0.0.0/0" } })).status).toBe(403)
    }
    const token = await superToken()
    const home = "203.0.113.9"
    const add = (ip: string, from = home) => call(url(), "POST", "/api/admin/ip-management", { token, ip: from, body: { ip, description: `office ${ip}` } })
    const bad = await add("10.0.0.0/33")
    expect(bad.status).toBe(400)
    expect(bad.body.issues).toEqual([{ path: "ip", message: ipMessages.invalid }])
    // The first entry must cover the caller, or it would shut them out.
    const lockOut = await add("198.51.100.0/24")
    expect(lockOut.status).toBe(409)
    expect(lockOut.body.error).toBe(ipMessages.lockOut(home))
    const ours = await add("203.0.113.0/24")
    expect(ours.status, ours.text).toBe(200)
    expect((ours.body.data as { ip: AllowedIp }).ip.ip).toBe("203.0.113.0/24")
    expect((await add("203.0.113.77/24")).status).toBe(409)
    const v6 = await add("2001:DB8:0:0::/32")
    expect((v6.body.data as { ip: AllowedIp }).ip.ip).toBe("2001:db8::/32")
    try {
      expect((await check(token, "203.0.113.200")).status).toBe(200)
      expect((await check(token, "2001:db8:ffff::1")).status).toBe(200)
      const outside = await check(token, "198.51.100.7")
      expect(outside.status).toBe(403)
      expect(outside.body.error).toBe(ipMessages.refused)
      expect((await check(token, "2001:db9::1")).status).toBe(403)
      // A token from outside reads nothing staff-only, even where the public may read too.
      const draft = await call(url(), "POST", "/api/blog/admin/posts", {
        token,
        ip: home,
        body: { title: `Draft ${freshEmail("post")}`, content: "<p>Not yet</p>", status: "draft" }
      })
      expect(draft.status, draft.text).toBe(200)
      const slug = (draft.body.post as { slug: string }).slug
      for (const path of ["/api/blog/posts?status=draft", `/api/blog/posts/${slug}`, "/api/blog/posts?format=csv", "/api/core-team-contact?page=1"]) {
        const answer = await call(url(), "GET", path, { token, ip: "198.51.100.7" })
        expect(answer.status, path).toBe(403)
        expect(answer.body.error, path).toBe(ipMessages.refused)
      }
      expect((await call(url(), "GET", `/api/blog/posts/${slug}`, { ip: "198.51.100.7" })).status).toBe(404)
      expect((await call(url(), "GET", "/api/blog/posts", { ip: "198.51.100.7" })).status).toBe(200)
      expect((await call(url(), "GET", `/api/blog/posts/${slug}`, { token, ip: home })).status).toBe(200)
      // Sign-in is an admin endpoint too; the public forms are not.
      const signIn = await call(url(), "POST", "/api/admin/auth", { ip: "198.51.100.8", body: { email: freshEmail("x"), role: "admin" } })
      expect(signIn.status).toBe(403)
      expect(
        (await call(url(), "POST", "/api/report-scam", { ip: "198.51.100.9", body: { scamType: "other", description: "Public still works" } })).status
      ).toBe(200)
      const listed = await call(url(), "GET", "/api/admin/ip-management", { token, ip: home })
      const data = listed.body.data as { ips: ReadonlyArray<AllowedIp>; yourIp: string }
      expect(data.yourIp).toBe(home)
      // Removing the entry that lets the caller in, while another remains, would lock them out.
      const ourEntry = data.ips.find((entry) => entry.ip === "203.0.113.0/24")!
      const removal = await call(url(), "DELETE", `/api/admin/ip-management/${ourEntry._id}`, { token, ip: home })
      expect(removal.status).toBe(409)
      expect(removal.body.error).toBe(ipMessages.lockOut(home))
      // From an IPv6 address the list allows, the IPv4 entry can go.
      expect((await call(url(), "DELETE", `/api/admin/ip-management/${ourEntry._id}`, { token, ip: "2001:db8::5" })).status).toBe(200)
      expect((await check(token, home)).status).toBe(403)
    } finally {
      await staff.server.sql(clearAllowedIps)
    }
    expect((await check(token, "198.51.100.7")).status).toBe(200)
  })

  // Only PostgreSQL has other processes: PGlite's data folder belongs to one.
  if (engine.name === "postgresql") {
    it("applies an allowed-address change made by another process at once", async () => {
      const token = await signIn(await create(freshEmail("remote"), "admin").then((user) => user.email), "admin")
      expect(await adminScript("allow-ip", "192.0.2.0/24", "VPN")).toBe(0)
      try {
        await expect.poll(async () => (await check(token, "198.51.100.20")).status, { timeout: 2_000 }).toBe(403)
        expect((await check(token, "192.0.2.44")).status).toBe(200)
      } finally {
        expect(await adminScript("clear-ips")).toBe(0)
      }
      await expect.poll(async () => (await check(token, "198.51.100.20")).status, { timeout: 2_000 }).toBe(200)
    })
  }
})
