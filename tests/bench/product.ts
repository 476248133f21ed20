import autocannon from "autocannon"
import { call } from "../support/http.ts"
import { runScript } from "../support/process.ts"
import { readOutbox } from "../support/server.ts"

/** The product as `npm start` runs it, in its own process, on a free port. */
export const startProduct = async (env: Record<string, string>, dataDir: string) => {
  const server = runScript("server/main.ts", [], { DATA_DIR: dataDir, PORT: "0", ...env })
  const [, url] = await server.waitFor(/Listening on (http:\/\/\S+)/, 120_000)
  return { url: url ?? "", pid: server.child.pid ?? 0, stop: async () => void (server.child.kill("SIGTERM"), await server.exited) }
}

/** Signs the first admin in with the code from the outbox; returns the bearer token. */
export const signInFirstAdmin = async (url: string, dataDir: string): Promise<string> => {
  await call(url, "POST", "/api/admin/auth", { body: { email: "admin@example.com", role: "super_admin" } })
  const code = readOutbox(dataDir).at(-1)?.subject.match(/(\d{6})/)?.[1] ?? ""
  const answer = await call(url, "POST", "/api/admin/auth", { body: { email: "admin@example.com", otp: code } })
  if (answer.status !== 200) throw new Error(`sign-in failed: ${answer.text}`)
  return answer.body.token as string
}

/** autocannon, 10 connections for 10 s, as every issue asks. */
export const load = (url: string, token?: string) =>
  autocannon({
    url,
    connections: 10,
    duration: 10,
    headers: token === undefined ? {} : { authorization: `Bearer ${token}` }
  })
