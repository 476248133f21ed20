import { expect } from "vitest"
import { call } from "./http.ts"
import type { TestServer } from "./server.ts"

/** A community waiting for a decision, made over HTTP with `token` (an admin's). */
export const makeCommunity = async (server: TestServer, token: string, name: string) => {
  const made = await call(server.url, "POST", "/api/admin/communities", { token, body: { name, description: "Waiting for a decision" } })
  expect(made.status, made.text).toBe(200)
}

/** The community named `name` as the server has it now, asked with `token`: its id, status and version. */
export const onServer = async (server: TestServer, token: string, name: string) => {
  const answer = await call(server.url, "GET", `/api/admin/communities/combined?search=${encodeURIComponent(name)}`, { token })
  const [listing] = (answer.body.data as { communities: ReadonlyArray<{ _id: string; status: string; version: number }> }).communities
  return listing === undefined ? undefined : { id: listing._id, status: listing.status, version: listing.version }
}
