import { Deferred, Effect } from "effect"
import pg from "pg"
import { SqlClient } from "effect/sql/SqlClient"
import { beforeAll, describe, expect, it } from "vitest"
import { ipMessages } from "../../contract/ip-rules.ts"
import { clearAllowedIps } from "../../server/allowed-ips/repository.ts"
import { engines } from "../support/database.ts"
import { call, freshIp } from "../support/http.ts"
import { apiOperations } from "../support/openapi.ts"
import { withDatabase } from "../support/stall.ts"
import { serverWithStaff, signedInAs } from "../support/session.ts"
import { publicReadTexts } from "../spec/texts.ts"

describe.each(engines)("endpoints open to the public and to staff alike, on $name", (engine) => {
  const staff = serverWithStaff(engine)
  const url = () => staff.server.url

  it("refuse a live token from outside the allowed addresses with 403, every one of them, and still answer the public", async () => {
    const superAdmin = await signedInAs(staff.server, "super_admin")
    const home = "203.0.113.9"
    const allowed = await call(url(), "POST", "/api/admin/ip-management", {
      token: superAdmin,
      ip: home,
      body: { ip: "203.0.113.0/24", description: "office" }
    })
    expect(allowed.status, allowed.text).toBe(200)
    try {
      const open = (await apiOperations(url())).filter((operation) => !operation.signedIn)
      const refused: Array<string> = []
      expect(open.map((operation) => `${operation.method} ${operation.path}`)).toContain("GET /api/blog/tags")
      for (const operation of open) {
        const name = `${operation.method} ${operation.path}`
        const body = operation.method === "GET" ? undefined : {}
        // A fresh address each: the public forms count every request without a token.
        const outside = () => `198.51.100.${1 + (open.indexOf(operation) % 250)}`
        const withToken = await call(url(), operation.method, operation.example, { token: staff.admin, ip: outside(), body })
        const anonymous = await call(url(), operation.method, operation.example, { ip: freshIp(), body })
        expect(withToken.status, `${name}: ${withToken.text}`).toBeLessThan(500)
        expect(anonymous.status, `${name}: ${anonymous.text}`).toBeLessThan(500)
        // It reads no token (the token changes nothing), or it reads one and refuses it from outside the list.
        if (withToken.status !== anonymous.status) {
          refused.push(name)
          expect(withToken.status, `${name}: ${withToken.text}`).toBe(403)
          expect(withToken.body.error, name).toBe(ipMessages.refused)
          expect(operation.statuses.has(403), name).toBe(true)
        }
      }
      expect(refused).toEqual(
        expect.arrayContaining(["GET /api/blog/posts", "GET /api/blog/posts/{slug}", "GET /api/blog/tags", "POST /api/core-team-contact"])
      )
    } finally {
      await staff.server.sql(clearAllowedIps)
    }
  })
})

describe.each(engines)("the public's reads, on $name", (engine) => {
  const staff = serverWithStaff(engine)
  const url = () => staff.server.url
  const publicLists = [
    "/api/listings/community",
    "/api/listings/influencer",
    "/api/listings/business",
    "/api/listings/startup",
    "/api/listings/project",
    "/api/blog/posts"
  ]

  /**
   * Holds the listings table locked until the answer is called: every read of it waits. On
   * PostgreSQL from a connection of the test's own (no idle-in-transaction limit); PGlite has one
   * session, so from a transaction of the server's own.
   */
  const holdListings = async (): Promise<() => Promise<void>> => {
    const target = staff.database.target
    if (target.engine === "postgresql") {
      const holder = new pg.Client({ connectionString: target.url })
      await holder.connect()
      await holder.query("BEGIN")
      await holder.query("LOCK TABLE listings IN ACCESS EXCLUSIVE MODE")
      return async () => {
        await holder.query("ROLLBACK")
        await holder.end()
      }
    }
    const held = Deferred.makeUnsafe<void>()
    const release = Deferred.makeUnsafe<void>()
    const holding = staff.server.sql(
      Effect.flatMap(SqlClient, (sql) =>
        sql.withTransaction(
          Effect.andThen(sql`LOCK TABLE listings IN ACCESS EXCLUSIVE MODE`, Effect.andThen(Deferred.succeed(held, undefined), Deferred.await(release)))
        )
      )
    )
    await Effect.runPromise(Deferred.await(held))
    return async () => {
      Deferred.doneUnsafe(release, Effect.void)
      await holding
    }
  }

  beforeAll(async () => {
    // More approved communities than the public pages through, a tenth pending.
    await staff.server.sql(
      Effect.flatMap(
        SqlClient,
        (sql) => sql`INSERT INTO listings (id, type, name, description, status, created_at, updated_at)
          SELECT gen_random_uuid(), 'community', 'Community ' || lpad(i::text, 5, '0'), 'About Pi ' || i,
                 CASE WHEN i % 10 = 0 THEN 'pending' ELSE 'approved' END, now() - make_interval(secs => i), now()
          FROM generate_series(1, 1400) AS i`
      )
    )
  })

  it("page a list's newest 1,000 rows: a deeper page is a 400 naming page, and pages counts what may be opened", async () => {
    for (const list of publicLists) {
      for (const [page, limit] of [
        [51, 20],
        [11, 100],
        [34, 30],
        [1_000_000, 100]
      ] as const) {
        const deep = await call(url(), "GET", `${list}?page=${page}&limit=${limit}`, { ip: freshIp() })
        expect(deep.status, `${list} page ${page} of ${limit}`).toBe(400)
        expect(deep.body.issues, list).toEqual([{ path: "page", message: publicReadTexts.tooDeep(Math.floor(1000 / limit), limit) }])
      }
      expect((await call(url(), "GET", `${list}?page=50&limit=20`, { ip: freshIp() })).status, list).toBe(200)
      expect((await call(url(), "GET", `${list}?page=33&limit=30`, { ip: freshIp() })).status, list).toBe(200)
    }
    const last = await call(url(), "GET", "/api/listings/community?page=10&limit=100", { ip: freshIp() })
    const { listings, pagination } = last.body.data as { listings: ReadonlyArray<{ name: string; status?: string }>; pagination: Record<string, number> }
    // 1,260 approved: the public is told all of them, and the pages it may open.
    expect(pagination).toEqual({ page: 10, limit: 100, total: 1260, pages: 10 })
    expect(listings).toHaveLength(100)
    expect(listings.map((listing) => listing.name)).not.toContain("Community 00010")
    const first = await call(url(), "GET", "/api/listings/community", { ip: freshIp() })
    expect((first.body.data as { pagination: unknown }).pagination).toEqual({ page: 1, limit: 20, total: 1260, pages: 50 })
    expect((first.body.data as { listings: ReadonlyArray<{ name: string }> }).listings[0]?.name).toBe("Community 00001")
    // A search reaches what paging does not.
    const searched = await call(url(), "GET", "/api/listings/community?search=01391", { ip: freshIp() })
    expect((searched.body.data as { listings: ReadonlyArray<{ name: string }> }).listings.map((listing) => listing.name)).toEqual(["Community 01391"])
    // Staff page their own list as deep as they like.
    const staffDeep = await call(url(), "GET", "/api/blog/posts?page=5000&limit=100", { token: staff.moderator, ip: freshIp() })
    expect(staffDeep.status, staffDeep.text).toBe(200)
  })

  it("counts each address's anonymous reads: past 300 a minute a 429 with Retry-After; other addresses and staff read on", async () => {
    const ip = freshIp()
    const statuses: Array<number> = []
    for (let n = 0; n < 300; n++) statuses.push((await call(url(), "GET", publicLists[n % publicLists.length]!, { ip })).status)
    expect(statuses.filter((status) => status !== 200)).toEqual([])
    for (const path of [...publicLists, "/api/blog/tags", "/api/blog/categories", "/api/blog/posts/no-such-post"]) {
      const refused = await call(url(), "GET", path, { ip })
      expect(refused.status, path).toBe(429)
      expect(refused.body.error, path).toBe(publicReadTexts.tooMany)
      const wait = Number(refused.headers.get("retry-after"))
      expect(wait, path).toBe(refused.body.retryAfterSeconds)
      expect(wait, path).toBeGreaterThanOrEqual(1)
      expect(wait, path).toBeLessThanOrEqual(60)
    }
    // An IPv6 client is counted by its /64: a new address in it is no way around the limit.
    const v6 = "2001:db8:40:12::"
    for (let n = 0; n < 300; n++) expect((await call(url(), "GET", "/api/blog/categories", { ip: `${v6}${(n + 1).toString(16)}` })).status).toBe(200)
    expect((await call(url(), "GET", "/api/blog/categories", { ip: `${v6}ffff` })).status).toBe(429)
    expect((await call(url(), "GET", "/api/blog/categories", { ip: "2001:db8:40:13::1" })).status).toBe(200)
    expect((await call(url(), "GET", "/api/listings/community", { ip: freshIp() })).status).toBe(200)
    // Staff at the refused address read on, and what they read is never counted.
    expect((await call(url(), "GET", "/api/blog/posts", { ip, token: staff.moderator })).status).toBe(200)
    const office = freshIp()
    for (let n = 0; n < 320; n++) expect((await call(url(), "GET", publicLists[n % publicLists.length]!, { ip: office, token: staff.admin })).status).toBe(200)
    expect((await call(url(), "GET", "/api/listings/community", { ip: office })).status).toBe(200)
  })

  it("keeps an ordinary visitor's first page at 200 while anonymous loops from a new address each fill the public's line", async () => {
    const visitor = freshIp()
    const firstPage = "/api/listings/community"
    // The visitor was reading before the flood began.
    expect((await call(url(), "GET", firstPage, { ip: visitor })).status).toBe(200)
    // On 100,000 listings a flood's reads are slow enough to keep the line full; here a transaction
    // holding the listings table stands for that.
    const release = await holdListings()
    // Valid reads a person could make: pages within the depth, the deepest allowed, searches.
    const floodPaths = [
      () => `/api/listings/community?page=${2 + Math.floor(Math.random() * 49)}`,
      () => `/api/listings/community?search=${Math.random().toString(36).slice(2, 5)}`,
      () => "/api/listings/community?page=10&limit=100",
      () => `/api/listings/influencer?search=${Math.random().toString(36).slice(2, 5)}`
    ]
    let flooding = true
    const flood: Array<number> = []
    const loops = Array.from({ length: 40 }, async (_, loop) => {
      for (let n = loop; flooding; n++) flood.push((await call(url(), "GET", floodPaths[n % floodPaths.length]!(), { ip: freshIp() })).status)
    })
    const seen: Array<number> = []
    try {
      // The line is full: a search is refused.
      await expect.poll(async () => (await call(url(), "GET", "/api/listings/community?search=pioneer", { ip: freshIp() })).status).toBe(503)
      for (let read = 0; read < 20; read++) {
        const answer = await call(url(), "GET", firstPage, { ip: visitor })
        seen.push(answer.status)
      }
    } finally {
      flooding = false
      await release()
      await Promise.all(loops)
    }
    console.log(
      `${engine.name}: the visitor's first page ${seen.filter((status) => status === 200).length} of ${seen.length} 200; the flood's ${flood.length} reads ${flood.filter((status) => status === 503).length} 503`
    )
    expect(flood.filter((status) => status !== 200 && status !== 503)).toEqual([])
    // An ordinary visitor keeps 95 % of their reads.
    expect(seen.filter((status) => status === 200).length).toBeGreaterThanOrEqual(19)
  })

  // The share is of a pool of connections: PGlite has one, and a table held locked there would hold every request.
  if (engine.name === "postgresql") {
    it("runs the public's reads on a third of the pool, 16 more in line, the rest a 503 with Retry-After; a kept page and staff are answered meanwhile", async () => {
      const target = staff.database.target
      // The first page, kept in the server's memory before the lock.
      expect((await call(url(), "GET", "/api/listings/community", { ip: freshIp() })).status).toBe(200)
      // Every public read of the listings waits on this lock, holding its place in the line.
      const release = await holdListings()
      const answers: Array<Awaited<ReturnType<typeof call>>> = []
      const waitingOnTheLock = () =>
        withDatabase(target.engine === "postgresql" ? target.url : "", async (client) => {
          const waiting = await client.query<{ n: number }>(
            "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'"
          )
          return waiting.rows[0]?.n
        })
      let reads: Promise<unknown> = Promise.resolve()
      let pages: Promise<ReadonlyArray<number>> = Promise.resolve([])
      try {
        // Searches are read each time: they take the line.
        reads = Promise.all(
          Array.from({ length: 30 }, (_, n) =>
            call(url(), "GET", `/api/listings/community?search=pi${n}`, { ip: freshIp() }).then((answer) => answers.push(answer))
          )
        )
        // 3 running (10 connections / 3) and 16 waiting: the other 11 are answered at once.
        await expect.poll(() => answers.length).toBe(11)
        for (const answer of answers) {
          expect(answer.status).toBe(503)
          expect(answer.body).toMatchObject({ error: publicReadTexts.busy, retryAfterSeconds: 1 })
          expect(answer.headers.get("retry-after")).toBe("1")
        }
        expect(await waitingOnTheLock()).toBe(3)
        // A page never kept waits in the same line (the line of its own is for pages kept before): refused while it is full.
        pages = Promise.all(
          Array.from({ length: 5 }, () => call(url(), "GET", "/api/listings/community?page=3&limit=50", { ip: freshIp() }).then((answer) => answer.status))
        )
        expect(await pages).toEqual([503, 503, 503, 503, 503])
        expect(await waitingOnTheLock()).toBe(3)
        // Any other search is refused while the line is full; the kept page and a staff read are answered at once.
        expect((await call(url(), "GET", "/api/blog/posts?search=pi", { ip: freshIp() })).status).toBe(503)
        expect((await call(url(), "GET", "/api/listings/community", { ip: freshIp() })).status).toBe(200)
        expect((await call(url(), "GET", "/api/blog/posts", { token: staff.moderator })).status).toBe(200)
        expect((await call(url(), "GET", "/api/report-scam", { token: staff.moderator })).status).toBe(200)
      } finally {
        await release()
      }
      await reads
      expect(answers.map((answer) => answer.status).sort()).toEqual([...Array<number>(19).fill(200), ...Array<number>(11).fill(503)])
      expect((await call(url(), "GET", "/api/listings/community?page=3&limit=50", { ip: freshIp() })).status).toBe(200)
      expect((await call(url(), "GET", "/api/listings/community?search=pi", { ip: freshIp() })).status).toBe(200)
    })
  }
})
