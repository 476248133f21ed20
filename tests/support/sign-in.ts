import { Effect } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { randomBytes } from "node:crypto"
import type { Role } from "../../contract/common.ts"
import { limits } from "../../server/auth/policy.ts"
import { type Answer, call, freshIp } from "./http.ts"
import type { TestServer } from "./server.ts"

/**
 * The sign-in as a client makes it (docs/security.md, "Sign-in"): ask for a code, which answers
 * with the attempt to name, then send the mailed code with that attempt. `browser` is a browser's
 * key, as the console keeps one in local storage; without it the request is a browser not known
 * for the e-mail.
 */
export interface From {
  readonly ip?: string
  readonly browser?: string
}

/** A new browser's key, as the console makes one (32 random bytes, URL-safe). */
export const newBrowserKey = (): string => randomBytes(32).toString("base64url")

export const askForCode = (url: string, email: string, role: Role, from: From = {}): Promise<Answer> =>
  call(url, "POST", "/api/admin/auth", {
    body: { email, role, ...(from.browser === undefined ? {} : { browser: from.browser }) },
    ip: from.ip ?? freshIp()
  })

export const sendCode = (url: string, email: string, otp: string, attempt: unknown, from: From = {}): Promise<Answer> =>
  call(url, "POST", "/api/admin/auth", {
    body: { email, otp, ...(typeof attempt === "string" ? { attempt } : {}), ...(from.browser === undefined ? {} : { browser: from.browser }) },
    ip: from.ip ?? freshIp()
  })

/** The attempt a code request's answer named. */
export const attemptOf = (answer: Answer): string => {
  const attempt = answer.body.attempt
  if (typeof attempt !== "string") throw new Error(`no attempt in the answer: ${answer.text}`)
  return attempt
}

/**
 * Time passes for the sign-in: every code, attempt window, rate-limit window and known browser
 * of `server` moves `seconds` into the past, as if the clock had moved forward (codes expire,
 * minutes and days end).
 */
export const timePasses = (server: TestServer, seconds: number) =>
  server.sql(
    Effect.flatMap(SqlClient, (sql) =>
      Effect.all([
        sql`UPDATE sign_in_codes SET created_at = created_at - make_interval(secs => ${seconds}), expires_at = expires_at - make_interval(secs => ${seconds})`,
        sql`UPDATE rate_limits SET window_start = window_start - make_interval(secs => ${seconds})`,
        sql`UPDATE known_browsers SET last_used_at = last_used_at - make_interval(secs => ${seconds}), expires_at = expires_at - make_interval(secs => ${seconds})`
      ])
    )
  )

/**
 * As if a minute had passed for `email`'s sign-in alone: its codes are older than a minute and the
 * minute in which one code request is acted on is over, for every browser
 * (server/auth/policy.ts, `codeResendsPerEmail`).
 */
export const aMinuteLater = (server: TestServer, email: string) =>
  server.sql(
    Effect.flatMap(SqlClient, (sql) =>
      Effect.andThen(
        sql`UPDATE sign_in_codes SET created_at = created_at - interval '61 seconds' WHERE email = ${email}`,
        sql`UPDATE rate_limits SET window_start = now() - interval '61 seconds'
            WHERE key = ${`${limits.codeResendsPerEmail.name}:${email}`} OR key LIKE ${`${limits.codeResendsPerEmail.name}:${email}|%`}`
      )
    )
  )
