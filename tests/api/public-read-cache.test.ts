import { describe, expect, it } from "vitest"
import { engines } from "../support/database.ts"
import { call, freshIp } from "../support/http.ts"
import { startTestServer } from "../support/server.ts"
import { serverWithStaff } from "../support/session.ts"

/**
 * The public's answers kept in each server's memory (server/auth/public-read-cache.ts; docs/api.md,
 * "Public reads") are never stale once a change is announced, and never staff's: the flood they
 * answer is in tests/api/public-reads.test.ts.
 */
describe.each(engines)("the public's kept answers, on $name", (engine) => {
  const staff = serverWithStaff(engine)
  const url = () => staff.server.url

  it("shows a change to the public's next read, and never what only staff may read", async () => {
    const firstPage = async (ip = freshIp()) => {
      const answer = await call(url(), "GET", "/api/listings/community", { ip })
      return answer.body.data as { listings: ReadonlyArray<{ name: string }>; pagination: { total: number } }
    }
    const before = await firstPage()
    // A submission waits for moderation: the public's list is as it was.
    const submitted = await call(url(), "POST", "/api/listings/community", { ip: freshIp(), body: { name: "Fresh Pioneers", description: "A group" } })
    expect(submitted.status, submitted.text).toBe(200)
    expect(await firstPage()).toEqual(before)
    const id = (submitted.body.data as { listing: { _id: string } }).listing._id
    const moderate = async (action: string, version: number) => {
      const answer = await call(url(), "PUT", `/api/admin/listings/${id}`, { token: staff.moderator, body: { action, version } })
      expect(answer.status, answer.text).toBe(200)
    }
    await moderate("approve", 1)
    const approved = await firstPage()
    expect(approved.listings[0]?.name).toBe("Fresh Pioneers")
    expect(approved.pagination.total).toBe(before.pagination.total + 1)
    await moderate("pending", 2)
    expect(await firstPage()).toEqual(before)

    // A draft is staff's: whichever reads first, the public never sees it, and staff always do.
    const post = await call(url(), "POST", "/api/blog/admin/posts", {
      token: staff.admin,
      body: { title: "Not yet news", content: "<p>draft</p>", status: "draft" }
    })
    expect(post.status, post.text).toBe(200)
    const { slug } = post.body.post as { slug: string }
    const titles = async (token?: string) =>
      (
        (await call(url(), "GET", "/api/blog/posts", { ip: freshIp(), ...(token === undefined ? {} : { token }) })).body.posts as ReadonlyArray<{
          title: string
        }>
      ).map((listed) => listed.title)
    expect(await titles()).not.toContain("Not yet news")
    expect(await titles(staff.moderator)).toContain("Not yet news")
    expect(await titles()).not.toContain("Not yet news")
    expect((await call(url(), "GET", `/api/blog/posts/${slug}`, { token: staff.moderator })).status).toBe(200)
    expect((await call(url(), "GET", `/api/blog/posts/${slug}`, { ip: freshIp() })).status).toBe(404)
    const published = await call(url(), "PUT", `/api/blog/admin/posts/${slug}`, {
      token: staff.admin,
      body: { title: "Not yet news", content: "<p>now news</p>", status: "published", version: 1 }
    })
    expect(published.status, published.text).toBe(200)
    expect(await titles()).toContain("Not yet news")
    expect((await call(url(), "GET", `/api/blog/posts/${slug}`, { ip: freshIp() })).body.post).toMatchObject({ content: "<p>now news</p>" })
    const removed = await call(url(), "DELETE", `/api/blog/admin/posts/${(post.body.post as { _id: string })._id}?version=2`, { token: staff.admin })
    expect(removed.status, removed.text).toBe(200)
    expect((await call(url(), "GET", `/api/blog/posts/${slug}`, { ip: freshIp() })).status).toBe(404)
    expect(await titles()).not.toContain("Not yet news")
  })

  if (engine.name === "postgresql") {
    it("shows a change made through another server as soon as its notice lands", async () => {
      const other = await startTestServer(staff.database)
      try {
        const names = async () =>
          (
            (await call(other.url, "GET", "/api/listings/community", { ip: freshIp() })).body.data as { listings: ReadonlyArray<{ name: string }> }
          ).listings.map((listing) => listing.name)
        expect(await names()).not.toContain("Elsewhere Pioneers")
        const submitted = await call(url(), "POST", "/api/listings/community", { ip: freshIp(), body: { name: "Elsewhere Pioneers", description: "A group" } })
        const id = (submitted.body.data as { listing: { _id: string } }).listing._id
        const approved = await call(url(), "PUT", `/api/admin/listings/${id}`, { token: staff.moderator, body: { action: "approve", version: 1 } })
        expect(approved.status, approved.text).toBe(200)
        await expect.poll(names, { timeout: 1_000, interval: 5 }).toContain("Elsewhere Pioneers")
      } finally {
        await other.stop()
      }
    })
  }
})
