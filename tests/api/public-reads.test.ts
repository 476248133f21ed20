import { describe, expect, it } from "vitest"
import { ipMessages } from "../../contract/ip-rules.ts"
import { clearAllowedIps } from "../../server/auth/allowed-ips.ts"
import { engines } from "../support/database.ts"
import { call, freshIp } from "../support/http.ts"
import { apiOperations } from "../support/openapi.ts"
import { serverWithStaff, signedInAs } from "../support/session.ts"

describe.each(engines)("endpoints open to the public and to staff alike, on $name", (engine) => {
  const staff = serverWithStaff(engine)
  const url = () => staff.server.url

  it("refuse a live token from outside the allowed addresses with 403, every one of them, and still answer the public", async () => {
    const superAdmin = await signedInAs(staff.server, "super_admin")
    const home = "203.0.113.9"
    const allowed = await call(url(), "POST", "/api/admin/ip-management", {
      token: superAdmin,
      ip: home,
      body: { ip: "203.0.113.0/24", description: "office" }
    })
    expect(allowed.status, allowed.text).toBe(200)
    try {
      const open = (await apiOperations(url())).filter((operation) => !operation.signedIn)
      const refused: Array<string> = []
      expect(open.map((operation) => `${operation.method} ${operation.path}`)).toContain("GET /api/blog/tags")
      for (const operation of open) {
        const name = `${operation.method} ${operation.path}`
        const body = operation.method === "GET" ? undefined : {}
        // A fresh address each: the public forms count every request without a token.
        const outside = () => `198.51.100.${1 + (open.indexOf(operation) % 250)}`
        const withToken = await call(url(), operation.method, operation.example, { token: staff.admin, ip: outside(), body })
        const anonymous = await call(url(), operation.method, operation.example, { ip: freshIp(), body })
        expect(withToken.status, `${name}: ${withToken.text}`).toBeLessThan(500)
        expect(anonymous.status, `${name}: ${anonymous.text}`).toBeLessThan(500)
        // It reads no token (the token changes nothing), or it reads one and refuses it from outside the list.
        if (withToken.status !== anonymous.status) {
          refused.push(name)
          expect(withToken.status, `${name}: ${withToken.text}`).toBe(403)
          expect(withToken.body.error, name).toBe(ipMessages.refused)
          expect(operation.statuses.has(403), name).toBe(true)
        }
      }
      expect(refused).toEqual(
        expect.arrayContaining(["GET /api/blog/posts", "GET /api/blog/posts/{slug}", "GET /api/blog/tags", "POST /api/core-team-contact"])
      )
    } finally {
      await staff.server.sql(clearAllowedIps)
    }
  })
})
