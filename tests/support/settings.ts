import type { AdminAccount } from "../../contract/admin-users.ts"
import type { TestDatabase } from "./database.ts"
import { call, freshIp } from "./http.ts"
import { runScript } from "./process.ts"
import { latestCode } from "./server.ts"
import { serverWithStaff, signedInAs } from "./session.ts"
import { expect } from "vitest"

let serial = 0
/** An e-mail (or any key) no other test of this process uses. */
export const freshEmail = (label: string) => `${label}-${++serial}-${process.pid}@example.com`

/**
 * The settings areas' test file (admin users, sessions, allowed addresses, protected data, site
 * settings): one engine's server with staff, a super admin signed in on first use, and the
 * calls those tests share.
 */
export const settingsServer = (engine: { readonly fresh: () => Promise<TestDatabase> }) => {
  const staff = serverWithStaff(engine)
  const url = () => staff.server.url
  let superAdmin = ""
  const superToken = async () => (superAdmin === "" ? (superAdmin = await signedInAs(staff.server, "super_admin")) : superAdmin)

  const users = async (query = "") => {
    const answer = await call(url(), "GET", `/api/admin/users${query}`, { token: await superToken() })
    expect(answer.status, answer.text).toBe(200)
    return answer.body.data as { users: ReadonlyArray<AdminAccount>; pagination: { total: number } }
  }
  const create = async (email: string, role: string, name?: string) => {
    const answer = await call(url(), "POST", "/api/admin/users", { token: await superToken(), body: { email, role, ...(name === undefined ? {} : { name }) } })
    expect(answer.status, answer.text).toBe(200)
    return (answer.body.data as { user: AdminAccount }).user
  }
  const update = (id: string, body: Record<string, unknown>, token?: string) =>
    superToken().then((own) => call(url(), "PUT", `/api/admin/users/${id}`, { token: token ?? own, body }))
  /** Signs `email` in as `role` over HTTP, as the console does. */
  const signIn = async (email: string, role: string) => {
    const ip = freshIp()
    const asked = await call(url(), "POST", "/api/admin/auth", { ip, body: { email, role } })
    const answer = await call(url(), "POST", "/api/admin/auth", {
      ip,
      body: { email, otp: await latestCode(staff.server, email), attempt: asked.body.attempt },
      headers: { "user-agent": "Mozilla/5.0 (X11; Linux x86_64) Chrome/142.0 Safari/537.36" }
    })
    expect(answer.status, answer.text).toBe(200)
    return answer.body.token as string
  }
  const check = (token: string, ip?: string) => call(url(), "GET", "/api/admin/auth/check", { token, ...(ip === undefined ? {} : { ip }) })
  /** `npm run admin` with `args` on this server's data, as another process; its exit code. */
  const adminScript = (...args: ReadonlyArray<string>) =>
    runScript("server/cli/admin.ts", args, { DATA_DIR: staff.server.config.dataDir, DATABASE_URL: staff.server.config.databaseUrl ?? "" }).exited

  return {
    staff,
    url,
    superToken,
    /** Makes `token` the super admin's from now on (after a test moved the role around). */
    useSuperToken: (token: string) => {
      superAdmin = token
    },
    users,
    create,
    update,
    signIn,
    check,
    adminScript
  }
}
