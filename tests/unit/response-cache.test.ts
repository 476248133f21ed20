import { Deferred, Effect, Fiber } from "effect"
import { HttpServerResponse } from "effect/http"
import { describe, expect, it } from "vitest"
import { NotFound, ServiceBusy } from "../../contract/common.ts"
import { makeResponseCache } from "../../server/platform/response-cache.ts"

/** The rules of the public's cache (server/platform/response-cache.ts), on a clock the test moves. */
const limits = { freshMs: 5_000, staleMs: 25_000, maxBytes: 100, maxEntryBytes: 40 }

const setup = () => {
  let clock = 0
  const cache = makeResponseCache(limits, () => clock)
  let reads = 0
  const answer = (text: string, status = 200) =>
    Effect.sync(() => {
      reads += 1
      return HttpServerResponse.uint8Array(new TextEncoder().encode(text), { status })
    })
  const busy = Effect.suspend(() => {
    reads += 1
    return Effect.fail(new ServiceBusy({ error: "busy", retryAfterSeconds: 1 }))
  })
  const body = (response: HttpServerResponse.HttpServerResponse) =>
    response.body._tag === "Uint8Array" ? new TextDecoder().decode(response.body.body) : `(${response.body._tag})`
  // Whether each read was told the key had a kept answer: the line it would wait in.
  const told: Array<boolean> = []
  const lined =
    <E>(fill: Effect.Effect<HttpServerResponse.HttpServerResponse, E>) =>
    (kept: boolean) =>
      Effect.suspend(() => (told.push(kept), fill))
  const get = (key: string, fill: Effect.Effect<HttpServerResponse.HttpServerResponse, ServiceBusy>, area = "listing") =>
    Effect.runPromise(Effect.map(cache.get(key, area, lined(fill)), body))
  const tryGet = (key: string, fill: Effect.Effect<HttpServerResponse.HttpServerResponse, ServiceBusy | NotFound>) =>
    Effect.runPromise(Effect.match(cache.get(key, "listing", lined(fill)), { onFailure: (error) => error._tag, onSuccess: body }))
  return { cache, answer, busy, get, tryGet, told, reads: () => reads, advance: (ms: number) => void (clock += ms) }
}

describe("the public's cache", () => {
  it("answers a key from memory while it is fresh, then reads it again behind the kept answer", async () => {
    const { answer, get, reads, advance } = setup()
    expect(await get("p1", answer("one"))).toBe("one")
    expect(await get("p1", answer("two"))).toBe("one")
    advance(4_999)
    expect(await get("p1", answer("two"))).toBe("one")
    advance(1)
    expect(await get("p1", answer("two"))).toBe("one")
    await expect.poll(() => get("p1", answer("three"))).toBe("two")
    expect(reads()).toBe(2)
  })

  it("keeps only a 200 with its bytes, of at most maxEntryBytes", async () => {
    const { answer, get, reads } = setup()
    await get("missing", answer("gone", 404))
    await get("missing", answer("gone", 404))
    await get("big", answer("x".repeat(41)))
    await get("big", answer("x".repeat(41)))
    expect(reads()).toBe(4)
  })

  it("serves a kept answer past its freshness while the database refuses to read it again, and not past staleMs", async () => {
    const { answer, busy, get, tryGet, reads, advance } = setup()
    await get("p1", answer("one"))
    advance(5_000)
    expect(await tryGet("p1", busy)).toBe("one")
    await expect.poll(reads).toBe(2)
    advance(24_999)
    expect(await tryGet("p1", busy)).toBe("one")
    await expect.poll(reads).toBe(3)
    advance(1)
    expect(await tryGet("p1", busy)).toBe("ServiceBusy")
  })

  it("answers an outdated page with what was kept only while reading it again is refused, and tells each read whether the key was kept", async () => {
    const { cache, answer, busy, get, tryGet, told, reads, advance } = setup()
    expect(await tryGet("missing", busy)).toBe("ServiceBusy")
    await get("missing", answer("gone", 404))
    await get("p1", answer("one"))
    expect(told).toEqual([false, false, false])
    cache.invalidate("listing")
    expect(await tryGet("p1", busy)).toBe("one")
    expect(await tryGet("p1", busy)).toBe("one")
    expect(await get("p1", answer("two"))).toBe("two")
    expect(await get("p1", answer("three"))).toBe("two")
    expect(told.slice(3)).toEqual([true, true, true])
    // Never past its freshMs + staleMs.
    cache.invalidate("listing")
    advance(29_999)
    expect(await tryGet("p1", busy)).toBe("two")
    advance(1)
    expect(await tryGet("p1", busy)).toBe("ServiceBusy")
    // A page that is gone since is a 404, and nothing of it is served after.
    await get("p1", answer("three"))
    cache.invalidate("listing")
    expect(await get("p1", answer("gone", 404))).toBe("gone")
    expect(await tryGet("p1", busy)).toBe("ServiceBusy")
    expect(told.slice(-2)).toEqual([true, false])
    // So is a post whose read now fails otherwise than refused (NotFound).
    await get("post", answer("post"))
    cache.invalidate("listing")
    expect(await tryGet("post", Effect.fail(new NotFound({ error: "gone" })))).toBe("NotFound")
    expect(await tryGet("post", busy)).toBe("ServiceBusy")
    expect(reads()).toBe(13)
  })

  it("drops an area's answers when it changes, and keeps nothing that was being read then", async () => {
    const { cache, answer, get, reads } = setup()
    await get("p1", answer("one"))
    await get("post", answer("post"), "blog")
    cache.invalidate("listing")
    expect(await get("p1", answer("two"))).toBe("two")
    expect(await get("post", answer("other"), "blog")).toBe("post")
    // A read that began before a change is answered, but not kept.
    const gate = Deferred.makeUnsafe<void>()
    const slow = Effect.runFork(cache.get("p2", "listing", () => Effect.andThen(Deferred.await(gate), answer("before"))))
    await Effect.runPromise(Effect.yieldNow)
    cache.invalidate("listing")
    Deferred.doneUnsafe(gate, Effect.void)
    await Effect.runPromise(Fiber.join(slow))
    expect(await get("p2", answer("after"))).toBe("after")
    cache.invalidateAll()
    expect(await get("post", answer("again"), "blog")).toBe("again")
    expect(reads()).toBe(6)
  })

  it("reads a key once however many ask for it at once, and they all get that answer", async () => {
    const { cache, answer, reads } = setup()
    const gate = Deferred.makeUnsafe<void>()
    const fill = Effect.andThen(Deferred.await(gate), answer("shared"))
    const readers = Array.from({ length: 5 }, () => Effect.runFork(cache.get("p1", "listing", () => fill)))
    await Effect.runPromise(Effect.yieldNow)
    Deferred.doneUnsafe(gate, Effect.void)
    const bodies = await Promise.all(
      readers.map((reader) =>
        Effect.runPromise(Effect.map(Fiber.join(reader), (response) => (response.body._tag === "Uint8Array" ? response.body.body.length : 0)))
      )
    )
    expect(bodies).toEqual([6, 6, 6, 6, 6])
    expect(reads()).toBe(1)
  })

  it("holds at most maxBytes, dropping the least recently read first", async () => {
    const { cache, answer, get, reads } = setup()
    for (const key of ["a", "b", "c"]) await get(key, answer("x".repeat(30)))
    await get("a", answer("new"))
    await get("d", answer("x".repeat(30)))
    expect(cache.size()).toEqual({ entries: 3, bytes: 90 })
    expect(reads()).toBe(4)
    // b went first; a was read since.
    await get("a", answer("new"))
    expect(reads()).toBe(4)
    await get("b", answer("y"))
    expect(reads()).toBe(5)
  })
})
