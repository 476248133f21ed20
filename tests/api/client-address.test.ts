import { Effect } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { clientAddress, forwardedForMessage } from "../../server/platform/client-address.ts"
import { parseProxies } from "../../server/platform/config.ts"
import { engines, type TestDatabase } from "../support/database.ts"
import { call } from "../support/http.ts"
import { startTestServer, type TestServer } from "../support/server.ts"

/** The client address as docs/security.md says: the header is believed only from the proxies TRUST_PROXY names. */
describe("the client address", () => {
  const proxies = parseProxies("10.0.0.0/8,::1") ?? []

  it("takes the last X-Forwarded-For entry from a listed proxy only", () => {
    expect(clientAddress("10.1.2.3", "198.51.100.1, 203.0.113.7", proxies)).toEqual({ ip: "203.0.113.7" })
    expect(clientAddress("::ffff:10.1.2.3", "203.0.113.7", proxies)).toEqual({ ip: "203.0.113.7" })
    expect(clientAddress("::1", "2001:DB8::1", proxies)).toEqual({ ip: "2001:db8::1" })
    expect(clientAddress("192.0.2.9", "203.0.113.7", proxies)).toEqual({ ip: "192.0.2.9" })
    expect(clientAddress("10.1.2.3", undefined, proxies)).toEqual({ ip: "10.1.2.3" })
    expect(clientAddress("10.1.2.3", " , ", proxies)).toEqual({ ip: "10.1.2.3" })
    expect(clientAddress("10.1.2.3", "203.0.113.7", [])).toEqual({ ip: "10.1.2.3" })
  })

  it("calls anything but one address from a listed proxy invalid", () => {
    for (const value of ['=HYPERLINK("http://evil")', "203.0.113.0/24", "localhost", "1.2.3.4:80", "999.1.1.1"]) {
      expect(clientAddress("10.1.2.3", `198.51.100.1, ${value}`, proxies), value).toEqual({ invalid: value })
    }
  })

  it("reads TRUST_PROXY as off or a list of addresses and ranges, nothing else", () => {
    expect(parseProxies("off")).toEqual([])
    expect(parseProxies("127.0.0.1, 10.0.0.0/8,::1")).toHaveLength(3)
    for (const bad of ["on", "true", "127.0.0.1,", "10.0.0.0/33", "proxy.local"]) expect(parseProxies(bad), bad).toBeUndefined()
  })
})

describe.each(engines)("the client address over HTTP on $name", (engine) => {
  let database: TestDatabase
  let untrusted: TestServer
  let trusted: TestServer

  beforeAll(async () => {
    database = await engine.fresh()
    trusted = await startTestServer(database)
    // A server that trusts a proxy elsewhere, not this machine.
    untrusted = await startTestServer(database, { trustedProxies: parseProxies("10.0.0.0/8") ?? [] })
  })
  afterAll(async () => {
    await untrusted?.stop()
    await trusted?.stop()
    await database?.drop()
  })

  const storedAddress = async (server: TestServer, description: string) => {
    const rows = await server.sql(
      Effect.flatMap(SqlClient, (sql) => sql<{ ipAddress: string }>`SELECT ip_address FROM scam_reports WHERE description = ${description}`)
    )
    return rows.map((row) => row.ipAddress)
  }

  it("ignores the header from a peer that is not a listed proxy", async () => {
    const answer = await call(untrusted.url, "POST", "/api/report-scam", {
      ip: "203.0.113.50",
      body: { scamType: "other", description: "From an unlisted peer" }
    })
    expect(answer.status, answer.text).toBe(200)
    expect(await storedAddress(untrusted, "From an unlisted peer")).toEqual(["127.0.0.1"])
  })

  it("refuses a listed proxy's header whose last entry is not an address, storing nothing", async () => {
    const answer = await call(trusted.url, "POST", "/api/report-scam", {
      ip: '=HYPERLINK("http://evil")',
      body: { scamType: "other", description: "Forged address" }
    })
    expect(answer.status).toBe(400)
    expect(answer.body).toMatchObject({ success: false, error: forwardedForMessage })
    expect(answer.headers.get("x-content-type-options")).toBe("nosniff")
    expect(await storedAddress(trusted, "Forged address")).toEqual([])
    const fine = await call(trusted.url, "POST", "/api/report-scam", { ip: "203.0.113.51", body: { scamType: "other", description: "Through the proxy" } })
    expect(fine.status).toBe(200)
    expect(await storedAddress(trusted, "Through the proxy")).toEqual(["203.0.113.51"])
  })
})
