import { Effect } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { describe, expect, it } from "vitest"
import { blogMessages } from "../spec/texts.ts"
import { csvObjects } from "../support/csv.ts"
import { engines } from "../support/database.ts"
import { call } from "../support/http.ts"
import { serverWithStaff, signedInAs } from "../support/session.ts"

/** More rows than one export batch (1000), all from one statement, so they share one `created_at`. */
const BULK = 2_345

describe.each(engines)("lists and CSV export on $name", (engine) => {
  const staff = serverWithStaff(engine)
  const get = (path: string, options: { token?: string; headers?: Record<string, string> } = {}) =>
    call(staff.server.url, "GET", path, { token: staff.admin, ...options })
  const run = <A>(effect: (sql: SqlClient) => Effect.Effect<A, unknown>) => staff.server.sql(Effect.flatMap(SqlClient, effect))

  it("exports every matching address of a directory, in the list's order, across batches", async () => {
    await run(
      (sql) => sql`INSERT INTO addresses (id, kind, identifier, name, rank)
      SELECT gen_random_uuid(), 'generated', 'bulk-' || lpad(n::text, 5, '0'), 'Bulk ' || (n % 97), n % 13
      FROM generate_series(1, ${BULK}) AS n`
    )
    const all = await get("/api/admin/addresses/generated?format=csv")
    expect(all.status).toBe(200)
    expect(all.headers.get("content-type")).toBe("text/csv; charset=utf-8")
    expect(all.headers.get("content-disposition")).toMatch(/^attachment; filename="generated-addresses-\d{4}-\d{2}-\d{2}\.csv"$/)
    const rows = csvObjects(all.text)
    expect(rows).toHaveLength(BULK)
    expect(new Set(rows.map((row) => row._id)).size).toBe(BULK)
    expect(Object.keys(rows[0] ?? {})).toEqual(["_id", "identifier", "Name", "Category", "Rank", "Website", "Logo", "Description", "createdAt", "updatedAt"])

    // The first page of the list is the first rows of the export, for the same sort.
    for (const sort of ["rank", "name", "identifier"]) {
      for (const order of ["asc", "desc"]) {
        const exported = csvObjects((await get(`/api/admin/addresses/generated?format=csv&sort=${sort}&order=${order}`)).text)
        expect(exported).toHaveLength(BULK)
        expect(new Set(exported.map((row) => row._id)).size).toBe(BULK)
        const page = await get(`/api/admin/addresses/generated?sort=${sort}&order=${order}&limit=100&page=3`)
        const ids = (page.body.data as { addresses: Array<{ _id: string }> }).addresses.map((a) => a._id)
        expect(exported.slice(200, 300).map((row) => row._id)).toEqual(ids)
      }
    }

    const searched = csvObjects((await get("/api/admin/addresses/generated?format=csv&search=bulk-01")).text)
    const listed = await get("/api/admin/addresses/generated?search=bulk-01&limit=100")
    const pagination = (listed.body.data as { pagination: { total: number } }).pagination
    expect(searched.length).toBe(pagination.total)
    expect(searched.length).toBeGreaterThan(0)
    expect(searched.every((row) => row.identifier?.startsWith("bulk-01"))).toBe(true)
  })

  it("answers CSV to an Accept header too, and JSON when format=json overrides it", async () => {
    const byHeader = await get("/api/admin/addresses/cex", { headers: { accept: "text/csv" } })
    expect(byHeader.headers.get("content-type")).toContain("text/csv")
    expect(byHeader.text.split("\r\n")[0]).toBe("_id,identifier,name,category,buy,website,logo,description,createdAt,updatedAt")
    const json = await get("/api/admin/addresses/cex?format=json", { headers: { accept: "text/csv" } })
    expect(json.headers.get("content-type")).toContain("application/json")
    expect(json.body.success).toBe(true)
  })

  it("quotes as RFC 4180 says and defuses cells a spreadsheet would run as formulas", async () => {
    const awkward = [
      { identifier: '=HYPERLINK("http://evil")', name: "+SUM(A1)", role: "-2+3", description: '@cmd, "quoted"\r\nsecond line' },
      { identifier: "plain", name: "Comma, inside", role: "ok", description: "\ttab" }
    ]
    for (const body of awkward) {
      expect((await call(staff.server.url, "POST", "/api/admin/addresses/core-team", { token: staff.admin, body })).status).toBe(200)
    }
    const exported = await get("/api/admin/addresses/core-team?format=csv&sort=identifier&order=asc")
    const rows = csvObjects(exported.text)
    expect(rows.map((row) => [row.identifier, row.name, row.role, row.description])).toEqual([
      ['\'=HYPERLINK("http://evil")', "'+SUM(A1)", "'-2+3", '\'@cmd, "quoted"\r\nsecond line'],
      ["plain", "Comma, inside", "ok", "'\ttab"]
    ])
    expect(exported.text).toContain('"\'@cmd, ""quoted""\r\nsecond line"')
  })

  it("defuses formulas in list cells and behind the spaces a spreadsheet strips", async () => {
    const project = await call(staff.server.url, "POST", "/api/admin/projects", {
      token: staff.admin,
      body: {
        name: "Formula project",
        category: "Tools",
        projectStatus: "beta",
        description: "d",
        team: ['=HYPERLINK("http://evil")', "Bo"],
        technologies: ["@SUM(A1)"]
      }
    })
    expect(project.status, project.text).toBe(200)
    const [row] = csvObjects((await get("/api/admin/projects?format=csv&search=Formula%20project")).text)
    expect(row).toMatchObject({ team: '\'=HYPERLINK("http://evil"); Bo', technologies: "'@SUM(A1)" })

    const tags = [" =1+1", "\u00a0=2+2", "\ufeff=3+3", "\u200b+4"]
    const post = await call(staff.server.url, "POST", "/api/blog/admin/posts", {
      token: staff.admin,
      body: { title: "Formula tags", content: "<p>Body</p>", status: "draft", tags }
    })
    expect(post.status, post.text).toBe(200)
    const [exported] = csvObjects((await get("/api/blog/posts?format=csv&search=Formula%20tags")).text)
    expect(exported?.tags?.startsWith("'")).toBe(true)
    // The blog's own tests below count every post there is.
    const made = post.body.post as { _id: string; version: number }
    expect((await call(staff.server.url, "DELETE", `/api/blog/admin/posts/${made._id}?version=${made.version}`, { token: staff.admin })).status).toBe(200)
    for (const cell of [" =x", "\u00a0=x", "\ufeff@x", "\u3000-1+1", "\uff1dx"]) {
      const made = await call(staff.server.url, "POST", "/api/admin/addresses/core-team", {
        token: staff.admin,
        body: { identifier: `lead-${cell.codePointAt(0)}`, name: cell, role: "r", description: "d" }
      })
      expect(made.status, made.text).toBe(200)
    }
    const names = csvObjects((await get("/api/admin/addresses/core-team?format=csv&search=lead-")).text).map((line) => line.name)
    expect(names).toHaveLength(5)
    for (const name of names) expect(name?.startsWith("'"), JSON.stringify(name)).toBe(true)
  })

  it("answers CSV on every staff list that takes a format, by the parameter and by the Accept header", async () => {
    type Parameter = { in: string; name: string; required?: boolean; schema?: { enum?: ReadonlyArray<string> } }
    const document = (await get("/api/openapi.json")).body as { paths: Record<string, Record<string, { parameters?: ReadonlyArray<Parameter> }>> }
    const lists = Object.entries(document.paths).flatMap(([path, operations]) => {
      const list = operations.get
      if (list?.parameters?.some((parameter) => parameter.in === "query" && parameter.name === "format") !== true) return []
      // Each required parameter takes every value it may: a list per type.
      return list.parameters
        .filter((parameter) => parameter.in === "path" || parameter.required === true)
        .reduce<ReadonlyArray<string>>(
          (paths, parameter) =>
            paths.flatMap((partial) =>
              (parameter.schema?.enum ?? []).map((value) =>
                parameter.in === "path"
                  ? partial.replace(`{${parameter.name}}`, value)
                  : `${partial}${partial.includes("?") ? "&" : "?"}${parameter.name}=${value}`
              )
            ),
          [path]
        )
    })
    expect(lists.length).toBeGreaterThan(15)
    // Some lists are a super admin's (admin users); moderators' exports are checked below.
    const token = await signedInAs(staff.server, "super_admin")
    for (const path of lists) {
      const query = path.includes("?") ? "&" : "?"
      const byFormat = await get(`${path}${query}format=csv`, { token })
      expect(byFormat.status, path).toBe(200)
      expect(byFormat.headers.get("content-type"), path).toBe("text/csv; charset=utf-8")
      expect(byFormat.text.split("\r\n")[0], path).toContain("_id")
      const byHeader = await get(path, { token, headers: { accept: "text/csv" } })
      expect(byHeader.headers.get("content-type"), path).toBe("text/csv; charset=utf-8")
    }
  })

  it("lets moderators export, and refuses without a token", async () => {
    expect((await get("/api/admin/addresses/core-team?format=csv", { token: staff.moderator })).status).toBe(200)
    const anonymous = await call(staff.server.url, "GET", "/api/admin/addresses/core-team?format=csv")
    expect(anonymous.status).toBe(401)
    expect(anonymous.body.success).toBe(false)
  })

  it("refuses an unknown format or a bad page with a message", async () => {
    const format = await get("/api/admin/addresses/cex?format=xlsx")
    expect(format.status).toBe(400)
    expect(String(format.body.error)).toContain("format")
    const page = await get("/api/blog/posts?page=0")
    expect(page.status).toBe(400)
    expect(String(page.body.error)).toContain("page")
    const limit = await get("/api/blog/posts?limit=101")
    expect(limit.status).toBe(400)
  })

  describe("blog posts", () => {
    const seed = async () => {
      await run(
        (sql) => sql`INSERT INTO blog_posts (id, slug, title, excerpt, content, status, tags, published_at, author)
        SELECT gen_random_uuid(), 'post-' || n, 'Post ' || n, 'Excerpt ' || n || CASE WHEN n = 7 THEN ' with a needle' ELSE '' END,
          '<p>Body</p>', CASE WHEN n % 10 = 0 THEN 'draft' ELSE 'published' END,
          CASE WHEN n = 11 THEN ARRAY['haystack-tag'] ELSE ARRAY[]::text[] END,
          CASE WHEN n % 10 = 0 THEN NULL ELSE now() - make_interval(mins => n) END, '{"username":"seed"}'::jsonb
        FROM generate_series(1, 300) AS n`
      )
    }

    it("pages on the server, newest first, so a post far down (251 of 300) can be listed and opened", async () => {
      await seed()
      const first = await get("/api/blog/posts")
      expect(first.body.pagination).toEqual({ page: 1, limit: 20, total: 300, pages: 15 })
      expect(first.body.posts as Array<unknown>).toHaveLength(20)
      const onPage = await get("/api/blog/posts?status=published&page=12")
      const slugs = (onPage.body.posts as Array<{ slug: string }>).map((post) => post.slug)
      expect(onPage.body.pagination).toEqual({ page: 12, limit: 20, total: 270, pages: 14 })
      expect(slugs).toContain("post-251")
      const opened = await get("/api/blog/posts/post-251")
      expect(opened.status).toBe(200)
      expect((opened.body.post as { title: string }).title).toBe("Post 251")
      const beyond = await get("/api/blog/posts?page=99")
      expect(beyond.body.pagination).toEqual({ page: 99, limit: 20, total: 300, pages: 15 })
      expect(beyond.body.posts).toEqual([])
    })

    it("searches title, excerpt and tags", async () => {
      const titled = (search: string) =>
        get(`/api/blog/posts?search=${encodeURIComponent(search)}`).then((answer) => (answer.body.posts as Array<{ slug: string }>).map((post) => post.slug))
      expect(await titled("needle")).toEqual(["post-7"])
      expect(await titled("HAYSTACK")).toEqual(["post-11"])
      expect(await titled("Post 299")).toEqual(["post-299"])
    })

    it("shows a draft by slug only to staff", async () => {
      const anonymous = await call(staff.server.url, "GET", "/api/blog/posts/post-10")
      expect(anonymous.status).toBe(404)
      expect(anonymous.body.error).toBe(blogMessages.notFound)
      expect((await get("/api/blog/posts/post-10")).status).toBe(200)
      expect((await get("/api/blog/posts/no-such-post")).status).toBe(404)
      const publicList = await call(staff.server.url, "GET", "/api/blog/posts?status=draft")
      expect((publicList.body.posts as Array<{ status: string }>).every((post) => post.status === "published")).toBe(true)
    })

    it("exports the filtered posts for staff only", async () => {
      const drafts = csvObjects((await get("/api/blog/posts?format=csv&status=draft")).text)
      expect(drafts).toHaveLength(30)
      expect(drafts.every((row) => row.status === "draft")).toBe(true)
      const all = csvObjects((await get("/api/blog/posts?format=csv")).text)
      expect(all).toHaveLength(300)
      const listed = await get("/api/blog/posts?limit=20")
      expect(all.slice(0, 20).map((row) => row.slug)).toEqual((listed.body.posts as Array<{ slug: string }>).map((post) => post.slug))
      const anonymous = await call(staff.server.url, "GET", "/api/blog/posts?format=csv")
      expect(anonymous.status).toBe(401)
      expect(anonymous.body.error).toBe(blogMessages.exportNeedsSignIn)
    })
  })
})
