import type { Role } from "../../contract/common.ts"
import { addAdmin } from "../../server/admin-users/repository.ts"
import { freshIp } from "./http.ts"
import { askForCode, sendCode } from "./sign-in.ts"
import { afterAll, beforeAll } from "vitest"
import type { TestDatabase } from "./database.ts"
import { latestCode, startTestServer, type TestServer } from "./server.ts"

let counter = 0

/** A new admin with `role`, signed in over HTTP like the console does; returns the bearer token. */
export const signedInAs = async (server: TestServer, role: Role): Promise<string> => {
  const email = `${role}-${++counter}-${process.pid}@example.com`
  await server.sql(addAdmin(email, role))
  return signIn(server, email, role)
}

/** An existing admin signed in as `role` (at most their granted one) from `ip`; returns the bearer token. */
export const signIn = async (server: TestServer, email: string, role: Role, ip = freshIp()): Promise<string> => {
  const asked = await askForCode(server.url, email, role, { ip })
  const answer = await sendCode(server.url, email, await latestCode(server, email), asked.body.attempt, { ip })
  if (answer.status !== 200) throw new Error(`sign-in failed: ${answer.text}`)
  return answer.body.token as string
}

/** One engine's server for a test file, with a signed-in admin and moderator; stopped and dropped after. */
export const serverWithStaff = (engine: { readonly fresh: () => Promise<TestDatabase> }) => {
  const state = {} as { server: TestServer; admin: string; moderator: string; database: TestDatabase }
  beforeAll(async () => {
    state.database = await engine.fresh()
    state.server = await startTestServer(state.database)
    state.admin = await signedInAs(state.server, "admin")
    state.moderator = await signedInAs(state.server, "moderator")
  })
  afterAll(async () => {
    await state.server?.stop()
    await state.database?.drop()
  })
  return state
}
