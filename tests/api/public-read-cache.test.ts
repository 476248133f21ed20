import pg from "pg"
import { describe, expect, it } from "vitest"
import { PUBLIC_CACHE_LIMITS } from "../../server/auth/public-read-cache.ts"
import { engines } from "../support/database.ts"
import { call, freshIp } from "../support/http.ts"
import { rawConnection } from "../support/raw-http.ts"
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

  // PGlite has one session: a table held locked there would hold every request, the visitor's too.
  if (engine.name === "postgresql") {
    it("keeps a visitor's list at 200, and shows each change soon after, while a flood of reads never kept fills the public's line", async () => {
      const names = async () => {
        const answer = await call(url(), "GET", "/api/listings/community", { ip: freshIp() })
        expect(answer.status, answer.text).toBe(200)
        return (answer.body.data as { listings: ReadonlyArray<{ name: string }> }).listings.map((listing) => listing.name)
      }
      await names()
      // Reads nobody else makes (posts that do not exist, page sizes nobody asks for), slow as on a
      // large database: here the posts' table held locked keeps each in the line until released.
      const target = staff.database.target
      const holder = new pg.Client({ connectionString: target.engine === "postgresql" ? target.url : "" })
      await holder.connect()
      await holder.query("BEGIN")
      await holder.query("LOCK TABLE blog_posts IN ACCESS EXCLUSIVE MODE")
      const never = [
        () => `/api/blog/posts/no-such-post-${Math.random().toString(36).slice(2)}`,
        () => {
          const limit = 1 + Math.floor(Math.random() * 100)
          // A page among the newest 1,000 the public may read (its last at most 1,000 / limit).
          return `/api/blog/posts?page=${1 + Math.floor(Math.random() * Math.floor(1_000 / limit))}&limit=${limit}`
        }
      ]
      let flooding = true
      const flood: Array<number> = []
      // An answer but 200, 404 or 503 is kept with its request and words, for the failure to name.
      const unexpected: Array<{ readonly path: string; readonly status: number; readonly text: string }> = []
      const loops = Array.from({ length: 40 }, async (_, loop) => {
        for (let n = loop; flooding; n++) {
          const path = never[n % never.length]!()
          const answer = await call(url(), "GET", path, { ip: freshIp() })
          flood.push(answer.status)
          if (![200, 404, 503].includes(answer.status)) unexpected.push({ path, status: answer.status, text: answer.text.slice(0, 300) })
        }
      })
      try {
        // The line is full.
        await expect.poll(() => flood.filter((status) => status === 503).length).toBeGreaterThan(0)
        for (let change = 1; change <= 5; change++) {
          const name = `Flooded Pioneers ${change}`
          const submitted = await call(url(), "POST", "/api/listings/community", { ip: freshIp(), body: { name, description: "A group" } })
          expect(submitted.status, submitted.text).toBe(200)
          const id = (submitted.body.data as { listing: { _id: string } }).listing._id
          const approved = await call(url(), "PUT", `/api/admin/listings/${id}`, { token: staff.moderator, body: { action: "approve", version: 1 } })
          expect(approved.status, approved.text).toBe(200)
          await expect.poll(async () => (await names())[0]).toBe(name)
        }
      } finally {
        flooding = false
        await holder.query("ROLLBACK")
        await holder.end()
        await Promise.all(loops)
      }
      expect(unexpected).toEqual([])
      expect(flood.filter((status) => ![200, 404, 503].includes(status))).toEqual([])
    })
  }

  it("never answers 500 to a request whose target is absolute or is no URL at all", async () => {
    const targets = [
      "http://x/api/blog/tags",
      "http://x/api/listings/community?page=2",
      "http://[/api/blog/posts",
      "http://a:b/api/blog/tags",
      "http://x:99999/api/blog/categories",
      "http://%zz/api/listings/community"
    ]
    const statuses: Record<string, number> = {}
    for (const target of targets) {
      const connection = await rawConnection(url())
      try {
        connection.send(target)
        statuses[target] = (await connection.answer()).status
      } finally {
        connection.destroy()
      }
    }
    expect(
      Object.values(statuses).filter((status) => status >= 500),
      JSON.stringify(statuses)
    ).toEqual([])
    expect(statuses["http://x/api/blog/tags"]).toBe(200)
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
        // Kept now, without a notice the other would show its copy until it is no longer fresh: only the notice shows the change before.
        const keptAt = performance.now()
        const submitted = await call(url(), "POST", "/api/listings/community", { ip: freshIp(), body: { name: "Elsewhere Pioneers", description: "A group" } })
        const id = (submitted.body.data as { listing: { _id: string } }).listing._id
        const approved = await call(url(), "PUT", `/api/admin/listings/${id}`, { token: staff.moderator, body: { action: "approve", version: 1 } })
        expect(approved.status, approved.text).toBe(200)
        await expect.poll(names, { timeout: PUBLIC_CACHE_LIMITS.freshMs - (performance.now() - keptAt), interval: 5 }).toContain("Elsewhere Pioneers")
      } finally {
        await other.stop()
      }
    })
  }
})
