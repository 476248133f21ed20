import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { AuthenticationOptions, RegistrationOptions } from "../../contract/passkeys.ts"
import { readConfig } from "../../server/platform/config.ts"
import { softAuthenticator } from "../support/authenticator.ts"
import { engines, type TestDatabase } from "../support/database.ts"
import { call, freshIp } from "../support/http.ts"
import { startTestServer, type TestServer } from "../support/server.ts"
import { signedInAs } from "../support/session.ts"

/**
 * The console's public address (`PUBLIC_ORIGIN`, README and docs/deploy.md): behind a proxy the
 * server binds passkeys to the address people open, not to its own; a bad setting stops the
 * server with one line; an answer made for the server's own address is then refused.
 */
const PUBLIC = "https://admin.example.com"

describe("PUBLIC_ORIGIN, read from the environment", () => {
  it("takes an http(s) address with no path, and says what is wrong with anything else", () => {
    expect(Effect.runSync(readConfig({ PUBLIC_ORIGIN: PUBLIC })).publicOrigin).toBe(PUBLIC)
    expect(Effect.runSync(readConfig({ PUBLIC_ORIGIN: "http://localhost:8080" })).publicOrigin).toBe("http://localhost:8080")
    expect(Effect.runSync(readConfig({})).publicOrigin).toBeUndefined()
    for (const bad of [
      `${PUBLIC}/`,
      `${PUBLIC}/admin`,
      "admin.example.com",
      "javascript:alert(1)",
      "ftp://admin.example.com",
      "https://admin.example.com:99999x"
    ]) {
      const refused = Effect.runSync(Effect.flip(readConfig({ PUBLIC_ORIGIN: bad })))
      expect(refused.message, bad).toBe(
        "Invalid configuration: PUBLIC_ORIGIN: must be the console's address as people open it, such as https://admin.example.com (no path, no trailing slash)"
      )
    }
  })
})

describe.each(engines)("passkeys behind a proxy on $name", (engine) => {
  const state = {} as { database: TestDatabase; server: TestServer; token: string }
  beforeAll(async () => {
    state.database = await engine.fresh()
    state.server = await startTestServer(state.database, { publicOrigin: PUBLIC })
    state.token = await signedInAs(state.server, "admin")
  })
  afterAll(async () => {
    await state.server?.stop()
    await state.database?.drop()
  })

  it("binds a passkey to the public address and its host, and refuses answers made for the server's own address", async () => {
    const { server, token } = state
    const own = `http://localhost:${new URL(server.url).port}`
    const key = softAuthenticator()
    const asked = async () => (await call(server.url, "POST", "/api/admin/auth/passkeys/options", { token })).body.data as RegistrationOptions
    const first = await asked()
    expect(first.rp.id).toBe("admin.example.com")
    const wrong = await call(server.url, "POST", "/api/admin/auth/passkeys", { token, body: { name: "Own address", credential: key.register(first, own) } })
    expect(wrong.status).toBe(400)
    const added = await call(server.url, "POST", "/api/admin/auth/passkeys", { token, body: { name: "Desk", credential: key.register(await asked(), PUBLIC) } })
    expect(added.status, added.text).toBe(200)
    // Signing in: the public address's answer opens a session; the server's own address's does not.
    const signIn = async (origin: string) => {
      const ip = freshIp()
      const options = (await call(server.url, "POST", "/api/admin/auth/passkeys/sign-in/options", { ip })).body.data as AuthenticationOptions
      expect(options.rpId).toBe("admin.example.com")
      return call(server.url, "POST", "/api/admin/auth/passkeys/sign-in", { ip, body: { credential: key.authenticate(options, origin) } })
    }
    expect((await signIn(own)).status).toBe(401)
    const signedIn = await signIn(PUBLIC)
    expect(signedIn.status, signedIn.text).toBe(200)
    expect(typeof signedIn.body.token).toBe("string")
  })
})
