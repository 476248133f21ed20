import { existsSync } from "node:fs"
import { call } from "./http.ts"
import { type Running, runScript } from "./process.ts"
import { readOutbox } from "./server.ts"

/**
 * The product as `npm start` runs it, in its own process on a free port: the fault suite and the
 * benchmarks drive it. With `DATABASE_URL` it gets the shared `OTP_SECRET` every server on one
 * PostgreSQL needs.
 */
export const SHARED_OTP_SECRET = "product-tests-shared-secret-0123456789abcdef"

/** The server `npm start` runs: the bundle `npm run build` (and `npm test`) makes of server/main.ts. */
export const PRODUCT_SERVER = "build/server/main.mjs"

export interface StartedProduct {
  readonly run: Running
  readonly url: string
  readonly pid: number
  readonly stop: () => Promise<void>
  readonly kill: () => Promise<void>
}

export const startProduct = async (env: Record<string, string>, dataDir: string): Promise<StartedProduct> => {
  if (!existsSync(PRODUCT_SERVER)) throw new Error(`${PRODUCT_SERVER} is not built: run npm run build first (npm test builds it too)`)
  const secret: Record<string, string> = env.DATABASE_URL === undefined ? {} : { OTP_SECRET: SHARED_OTP_SECRET }
  const run = runScript(PRODUCT_SERVER, [], { DATA_DIR: dataDir, PORT: "0", ...secret, ...env })
  const [, url] = await run.waitFor(/Listening on (http:\/\/\S+)/, 120_000)
  return {
    run,
    url: url!,
    pid: run.child.pid ?? 0,
    stop: async () => void (run.child.kill("SIGTERM"), await run.exited),
    kill: async () => void (run.child.kill("SIGKILL"), await run.exited)
  }
}

/** The newest code mailed to `email` after `skip` earlier mails to it, waiting for the mail worker. */
export const mailedCode = async (dataDir: string, email: string, skip = 0, timeoutMs = 15_000): Promise<string> => {
  const until = Date.now() + timeoutMs
  for (;;) {
    const mails = readOutbox(dataDir).filter((mail) => mail.to === email && /code: \d{6}/.test(mail.subject))
    const code = mails.length > skip ? mails.at(-1)?.subject.match(/(\d{6})/)?.[1] : undefined
    if (code !== undefined) return code
    if (Date.now() > until) throw new Error(`no code mailed to ${email} within ${timeoutMs} ms`)
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
}

export const FIRST_ADMIN = "admin@example.com"

/** Signs the first admin in with the code from the outbox; returns the bearer token. */
export const signInFirstAdmin = async (url: string, dataDir: string): Promise<string> => {
  const before = readOutbox(dataDir).filter((mail) => mail.to === FIRST_ADMIN && /code: \d{6}/.test(mail.subject)).length
  const asked = await call(url, "POST", "/api/admin/auth", { body: { email: FIRST_ADMIN, role: "super_admin" } })
  const answer = await call(url, "POST", "/api/admin/auth", {
    body: { email: FIRST_ADMIN, otp: await mailedCode(dataDir, FIRST_ADMIN, before), attempt: asked.body.attempt }
  })
  if (answer.status !== 200) throw new Error(`sign-in failed: ${answer.text}`)
  return answer.body.token as string
}
