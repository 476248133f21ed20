import { Effect } from "effect"
import fc from "fast-check"
import { SqlClient } from "effect/sql/SqlClient"
import { describe, expect, it } from "vitest"
import { blogMessages } from "../spec/texts.ts"
import { forgetSessions } from "../../server/sessions/cache.ts"
import { publishDuePosts } from "../../server/blog/scheduler.ts"
import { engines } from "../support/database.ts"
import { call } from "../support/http.ts"
import { serverWithStaff } from "../support/session.ts"

interface Post {
  readonly _id: string
  readonly slug: string
  readonly status: string
  readonly publishedAt: string | null
  readonly scheduledAt: string | null
  readonly version: number
  readonly [key: string]: unknown
}

describe.each(engines)("blog posts on $name", (engine) => {
  const staff = serverWithStaff(engine)

  const draft = (overrides: Record<string, unknown> = {}) => ({ title: "Hello Pi", content: "<p>Body</p>", status: "draft", ...overrides })
  const create = async (body: Record<string, unknown>, token = staff.admin) => call(staff.server.url, "POST", "/api/blog/admin/posts", { token, body })
  const created = async (body: Record<string, unknown>) => {
    const answer = await create(body)
    expect(answer.status).toBe(200)
    return answer.body.post as Post
  }
  const count = () => staff.server.sql(Effect.flatMap(SqlClient, (sql) => sql<{ n: number }>`SELECT count(*)::int AS n FROM blog_posts`)).then((r) => r[0]?.n)

  it("requires title and content after trimming, in the spec's words, and writes nothing", async () => {
    const before = await count()
    expect((await create(draft({ title: "   " }))).body.error).toBe(blogMessages.titleRequired)
    expect((await create(draft({ content: "  <p> </p> " }))).body.error).toBe(blogMessages.contentRequired)
    expect((await create(draft({ status: "scheduled" }))).body.error).toBe(blogMessages.scheduleRequired)
    expect(await count()).toBe(before)
  })

  it("derives a unique slug, the reading time, clean tag lists and a sanitized body", async () => {
    const words = Array.from({ length: 401 }, (_, i) => `w${i}`).join(" ")
    const first = await created(
      draft({
        title: "Mainnet: Q&A!",
        content: `<p onclick="x()">${words}</p><script>alert(1)</script>`,
        tags: [" pi ", "Pi", "", "news"],
        seoKeywords: ["a", " a ", "b"]
      })
    )
    expect(first.slug).toBe("mainnet-qa")
    expect(first.readingTime).toBe(3)
    expect(first.tags).toEqual(["pi", "news"])
    expect(first.seoKeywords).toEqual(["a", "b"])
    expect(first.content).toBe(`<p>${words}</p>`)
    const second = await created(draft({ title: "Mainnet Q&A" }))
    expect(second.slug).toBe("mainnet-qa-2")
  })

  it("keeps the letters of Russian, Japanese and Arabic titles in their slugs, and opens, saves, restores and finds such a post by it", async () => {
    const url = staff.server.url
    const titles = { ru: "Новости сети Пи", ja: "パイネットワークのニュース", ar: "أخبار شبكة باي" }
    const slugs = { ru: "новости-сети-пи", ja: "パイネットワークのニュース", ar: "أخبار-شبكة-باي" }
    for (const [language, title] of Object.entries(titles) as ReadonlyArray<[keyof typeof titles, string]>) {
      const post = await created(draft({ title, status: "published" }))
      expect(post.slug).toBe(slugs[language])
      const path = `/api/blog/posts/${encodeURIComponent(post.slug)}`
      const opened = await call(url, "GET", path)
      expect(opened.status, opened.text).toBe(200)
      expect((opened.body.post as Post)._id).toBe(post._id)
      const saved = await call(url, "PUT", `/api/blog/admin/posts/${encodeURIComponent(post.slug)}`, {
        token: staff.admin,
        body: { ...draft({ title, status: "published" }), excerpt: "Changed", version: post.version }
      })
      expect(saved.status, saved.text).toBe(200)
      expect(saved.body.post).toMatchObject({ slug: post.slug, excerpt: "Changed", version: 2 })
      const restored = await call(url, "POST", `/api/admin/history/blog/${post._id}/restore`, { token: staff.admin, body: { version: 1, expectedVersion: 2 } })
      expect(restored.status, restored.text).toBe(200)
      expect(((await call(url, "GET", path)).body.post as Post).excerpt).not.toBe("Changed")
      const found = await call(url, "GET", `/api/blog/posts?search=${encodeURIComponent(title.split(" ")[0]!)}`, { token: staff.admin })
      expect((found.body.posts as ReadonlyArray<Post>).map((each) => each.slug)).toContain(post.slug)
    }
    // A second post of the same title is told apart as Latin ones are.
    expect((await created(draft({ title: titles.ru }))).slug).toBe(`${slugs.ru}-2`)
    // Not a slug: refused, naming it, in any script.
    expect((await call(url, "GET", `/api/blog/posts/${encodeURIComponent("Новости Сети")}`)).status).toBe(400)
  })

  it("sets publishedAt only when published and keeps scheduledAt only when scheduled", async () => {
    const at = new Date(Date.now() + 60_000).toISOString()
    const scheduled = await created(draft({ title: "Later", status: "scheduled", scheduledAt: at }))
    expect(scheduled).toMatchObject({ status: "scheduled", publishedAt: null, scheduledAt: at })
    const published = await created(draft({ title: "Now", status: "published", scheduledAt: at }))
    expect(published.scheduledAt).toBeNull()
    expect(Date.now() - Date.parse(published.publishedAt ?? "")).toBeLessThan(60_000)

    const again = await call(staff.server.url, "PUT", `/api/blog/admin/posts/${published.slug}`, {
      token: staff.admin,
      body: { ...draft({ title: "Now", status: "published" }), version: published.version }
    })
    expect(again.status).toBe(200)
    expect((again.body.post as Post).publishedAt).toBe(published.publishedAt)
    const unpublished = await call(staff.server.url, "PUT", `/api/blog/admin/posts/${published.slug}`, {
      token: staff.admin,
      body: { ...draft({ title: "Now" }), version: published.version + 1 }
    })
    expect((unpublished.body.post as Post).publishedAt).toBeNull()
  })

  it("opens and saves a post whose title is 200 characters, its slug as long, and its second copy's longer", async () => {
    const title = `${"Pi ".repeat(66)}ok`
    expect(title).toHaveLength(200)
    for (const copy of [1, 2]) {
      const post = await created(draft({ title, status: "published" }))
      expect(post.slug.length).toBeGreaterThan(copy === 1 ? 190 : 195)
      const opened = await call(staff.server.url, "GET", `/api/blog/posts/${post.slug}`)
      expect(opened.status, opened.text).toBe(200)
      const saved = await call(staff.server.url, "PUT", `/api/blog/admin/posts/${post.slug}`, {
        token: staff.admin,
        body: { ...draft({ title, content: "<p>Edited</p>", status: "published" }), version: post.version }
      })
      expect(saved.status, saved.text).toBe(200)
    }
    // Past what a slug can be, the path is named as a bad slug, not a missing page.
    const tooLong = await call(staff.server.url, "GET", `/api/blog/posts/${"a".repeat(300)}`)
    expect(tooLong.status).toBe(400)
    expect(tooLong.body.error).toContain("slug")
  })

  it("shows every status with an admin token and only published posts without one", async () => {
    await created(draft({ title: "Secret draft" }))
    await created(draft({ title: "Public post", status: "published" }))
    const publicList = await call(staff.server.url, "GET", "/api/blog/posts")
    const adminList = await call(staff.server.url, "GET", "/api/blog/posts", { token: staff.admin })
    const titles = (answer: typeof publicList) => answer.body.posts as Array<{ title: string; status: string }>
    expect(titles(publicList).every((post) => post.status === "published")).toBe(true)
    expect(titles(publicList).map((p) => p.title)).toContain("Public post")
    expect(titles(adminList).map((p) => p.title)).toEqual(expect.arrayContaining(["Secret draft", "Public post"]))
    const bogus = await call(staff.server.url, "GET", "/api/blog/posts", { token: "nope" })
    expect(titles(bogus).map((p) => p.title)).not.toContain("Secret draft")
  })

  it("refuses stale updates and deletes with 409, and a moderator with 403", async () => {
    const post = await created(draft({ title: "Versioned" }))
    const body = { ...draft({ title: "Versioned", content: "<p>new</p>" }), version: post.version }
    expect((await call(staff.server.url, "PUT", `/api/blog/admin/posts/${post.slug}`, { token: staff.admin, body })).status).toBe(200)
    const stale = await call(staff.server.url, "PUT", `/api/blog/admin/posts/${post.slug}`, { token: staff.admin, body })
    expect(stale.status).toBe(409)
    expect(stale.body.error).toBe(blogMessages.stale)
    expect((await call(staff.server.url, "DELETE", `/api/blog/admin/posts/${post._id}?version=1`, { token: staff.admin })).status).toBe(409)
    expect((await create(draft({ title: "Nope" }), staff.moderator)).status).toBe(403)
    expect((await call(staff.server.url, "DELETE", `/api/blog/admin/posts/${post._id}?version=2`, { token: staff.moderator })).status).toBe(403)
    expect((await call(staff.server.url, "DELETE", `/api/blog/admin/posts/${post._id}?version=2`, { token: staff.admin })).status).toBe(200)
    expect((await call(staff.server.url, "DELETE", `/api/blog/admin/posts/${post._id}?version=3`, { token: staff.admin })).status).toBe(404)
    expect((await call(staff.server.url, "PUT", "/api/blog/admin/posts/no-such-post", { token: staff.admin, body })).status).toBe(404)
  })

  it("publishes each due scheduled post exactly once, at its scheduled time, even with two runners", async () => {
    const at = new Date(Date.now() + 3_600_000).toISOString()
    const posts = await Promise.all([1, 2, 3].map((n) => created(draft({ title: `Due ${n}`, status: "scheduled", scheduledAt: at }))))
    const ids = posts.map((post) => post._id)
    const past = new Date(Date.now() - 60_000)
    await staff.server.sql(Effect.flatMap(SqlClient, (sql) => sql`UPDATE blog_posts SET scheduled_at = ${past} WHERE id IN ${sql.in(ids)}`))
    const [first, second] = await staff.server.sql(Effect.all([publishDuePosts, publishDuePosts], { concurrency: 2 }))
    expect(first + second).toBeLessThanOrEqual(3)
    const rows = await staff.server.sql(
      Effect.flatMap(
        SqlClient,
        (sql) => sql<{ status: string; publishedAt: Date; scheduledAt: Date | null; events: number }>`
      SELECT p.status, p.published_at, p.scheduled_at,
        (SELECT count(*)::int FROM activity_log a WHERE a.entity_id = p.id::text AND a.action = 'blog.publish_scheduled') AS events
      FROM blog_posts p WHERE p.id IN ${sql.in(ids)}`
      )
    )
    expect(rows).toHaveLength(3)
    for (const row of rows) {
      expect(row).toMatchObject({ status: "published", scheduledAt: null, events: 1 })
      expect(row.publishedAt.getTime()).toBe(past.getTime())
    }
    expect(await staff.server.sql(publishDuePosts)).toBe(0)
  })

  it("creates categories from a name and lists categories and tags", async () => {
    const made = await call(staff.server.url, "POST", "/api/blog/admin/categories", { token: staff.admin, body: { name: "Ecosystem News" } })
    expect(made.body.data).toMatchObject({ slug: "ecosystem-news", name: "Ecosystem News" })
    const same = await call(staff.server.url, "POST", "/api/blog/admin/categories", { token: staff.admin, body: { name: "ecosystem news" } })
    expect((same.body.data as { _id: string })._id).toBe((made.body.data as { _id: string })._id)
    const categories = await call(staff.server.url, "GET", "/api/blog/categories")
    expect(categories.body).toMatchObject({ success: true, data: [{ slug: "ecosystem-news" }] })
    await created(draft({ title: "Tagged", tags: ["zeta", "alpha"] }))
    await created(draft({ title: "Out", status: "published", tags: ["live-tag"] }))
    const forStaff = await call(staff.server.url, "GET", "/api/blog/tags", { token: staff.admin })
    expect(forStaff.body.data).toEqual(expect.arrayContaining(["alpha", "zeta", "live-tag"]))
    // Readers see the tags of published posts only.
    const forReaders = (await call(staff.server.url, "GET", "/api/blog/tags")).body.data as Array<string>
    expect(forReaders).toContain("live-tag")
    expect(forReaders).not.toContain("zeta")
  })

  it("refuses a body the sanitizer empties with 400 Content is required, storing nothing, and lists stay readable", async () => {
    const before = await count()
    const evil = await create({ title: "Evil", content: "<style>a{}</style><script>x</script>", status: "published" })
    expect(evil).toMatchObject({ status: 400, body: { error: blogMessages.contentRequired } })
    expect(await count()).toBe(before)
    expect((await call(staff.server.url, "GET", "/api/blog/posts")).status).toBe(200)
    expect((await call(staff.server.url, "GET", "/api/blog/posts", { token: staff.admin })).status).toBe(200)
  })

  it("reads the time of what is stored: a script's words do not count", async () => {
    const words = Array.from({ length: 250 }, (_, i) => `w${i}`).join(" ")
    const post = await created(draft({ title: "Timed", content: `<p>short</p><script>${words}</script>` }))
    expect(post.readingTime).toBe(1)
  })

  it("accepts only http(s) or uploaded images in every link a reader's page renders, naming the field", async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ featuredImage: "javascript:alert(1)" }, "featuredImage"],
      [{ featuredImage: "data:image/png;base64,AAAA" }, "featuredImage"],
      [{ sponsorInfo: { name: "S", logo: "javascript:x", url: "" } }, "sponsorInfo.logo"],
      [{ sponsorInfo: { name: "S", logo: "", url: "vbscript:x" } }, "sponsorInfo.url"],
      [{ author: { username: "A", avatar: "//evil.example/a.png" } }, "author.avatar"]
    ]
    const before = await count()
    for (const [fields, field] of cases) {
      const answer = await create(draft(fields))
      expect(answer.status).toBe(400)
      expect(answer.body.error).toContain(field)
    }
    expect(await count()).toBe(before)
    const fine = await created(
      draft({ title: "Linked", featuredImage: "/uploads/a1.png", sponsorInfo: { name: "S", logo: "https://x.example/l.png", url: "" } })
    )
    expect(fine.featuredImage).toBe("/uploads/a1.png")
  })

  it("credits a post to the admin's display name, never their sign-in e-mail", async () => {
    const post = await created(draft({ title: "By whom" }))
    expect(JSON.stringify(post.author)).not.toContain("@")
    expect(post.author).toEqual({ username: "Editorial team" })
    await staff.server.sql(Effect.flatMap(SqlClient, (sql) => sql`UPDATE admins SET name = 'Pi Desk' WHERE role = 'admin'`))
    forgetSessions()
    expect((await created(draft({ title: "By name" }))).author).toEqual({ username: "Pi Desk" })
  })

  it("keeps the author's credentials whatever the username, an empty one signing with the admin's name", async () => {
    const bare = await created(draft({ title: "Credited", author: { username: "", credentials: "Chief Editor" } }))
    expect(bare.author).toMatchObject({ username: expect.not.stringMatching(/^$/), credentials: "Chief Editor" })
    const named = await created(draft({ title: "Named", author: { username: "Ada", credentials: "Chief Editor" } }))
    expect(named.author).toEqual({ username: "Ada", credentials: "Chief Editor" })
    // An edit that sends no author keeps the stored one, credentials included.
    const withoutAuthor = draft({ title: "Named" })
    expect(withoutAuthor).not.toHaveProperty("author")
    const kept = await call(staff.server.url, "PUT", `/api/blog/admin/posts/${named.slug}`, {
      token: staff.admin,
      body: { ...withoutAuthor, version: named.version }
    })
    expect((kept.body.post as Post).author).toEqual({ username: "Ada", credentials: "Chief Editor" })
  })

  it("makes every link rel=noopener noreferrer and keeps only target=_blank", async () => {
    const post = await created(
      draft({
        title: "Links",
        content: `<p><a href="https://a.example" target="_BLANK" rel="opener">a</a> <a href="https://b.example" target="_top">b</a></p>`
      })
    )
    expect(post.content).toBe(
      `<p><a href="https://a.example" target="_blank" rel="noopener noreferrer">a</a> <a href="https://b.example" rel="noopener noreferrer">b</a></p>`
    )
  })

  it("answers 400, never 500, for ids that are not ids, out-of-range paging and NUL characters", async () => {
    const bad = [
      ["DELETE", "/api/blog/admin/posts/notauuid?version=1"],
      ["DELETE", "/api/admin/addresses/generated/notauuid?version=1"],
      ["PUT", "/api/admin/addresses/cex/notauuid"],
      ["GET", "/api/admin/addresses/search?q=%00"],
      ["GET", "/api/blog/posts?limit=-5"],
      ["GET", "/api/blog/posts?page=1e20"],
      ["GET", "/api/blog/posts/%00"],
      ["DELETE", "/api/blog/admin/posts/00000000-0000-0000-0000-000000000000?version=1e20"]
    ] as const
    for (const [method, path] of bad) {
      const answer = await call(staff.server.url, method, path, {
        token: staff.admin,
        body: method === "PUT" ? { identifier: "x", name: "x", version: 1 } : undefined
      })
      expect({ path, status: answer.status }).toEqual({ path, status: 400 })
      expect(answer.body.success).toBe(false)
    }
    const gone = await call(staff.server.url, "DELETE", "/api/blog/admin/posts/00000000-0000-0000-0000-000000000000?version=1", { token: staff.admin })
    expect(gone.status).toBe(404)
    const nulInBody = await create(draft({ title: "a\u0000b" }))
    expect(nulInBody.status).toBe(400)
    expect(nulInBody.body.error).toContain("title: must not contain NUL characters")
  })

  it("answers 200 on both lists after any post the server accepts (property)", async () => {
    const html = fc.oneof(
      fc.string(),
      fc.constantFrom("<p>ok</p>", "<script>x</script>", "<style>a{}</style>", "<p onclick=x>y</p>", "<a href='javascript:x'>z</a>", "&nbsp;", "<p>\ud800</p>"),
      fc
        .array(fc.constantFrom("<p>", "</p>", "<b>", "text", "<img src=x onerror=y>", "<h1>", "&amp;", "\u202e"), { maxLength: 12 })
        .map((parts) => parts.join(""))
    )
    const body = fc.record({
      title: fc.oneof(fc.string({ maxLength: 60 }), fc.constantFrom("Post", "  ", "日本語", "\ud83e")),
      content: html,
      status: fc.constantFrom("draft", "published", "scheduled"),
      scheduledAt: fc.option(
        fc.date({ min: new Date("2020-01-01"), max: new Date("2040-01-01"), noInvalidDate: true }).map((date) => date.toISOString()),
        { nil: undefined }
      ),
      tags: fc.option(fc.array(fc.string({ maxLength: 12 }), { maxLength: 5 }), { nil: undefined }),
      excerpt: fc.option(fc.string({ maxLength: 80 }), { nil: undefined })
    })
    await fc.assert(
      fc.asyncProperty(body, async (post) => {
        const before = await count()
        const answer = await create(post)
        expect(answer.status).toBeLessThan(500)
        if (answer.status !== 200) expect(await count()).toBe(before)
        expect((await call(staff.server.url, "GET", "/api/blog/posts")).status).toBe(200)
        expect((await call(staff.server.url, "GET", "/api/blog/posts?limit=100", { token: staff.admin })).status).toBe(200)
      }),
      { numRuns: 60 }
    )
  })
})
