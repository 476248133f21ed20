import { describe, expect, it } from "vitest"
import { makeAddressLimit, subjectOf } from "../../server/platform/address-limit.ts"

describe("the per-address count kept in memory", () => {
  it("allows `limit` hits an address a window, then refuses with the seconds left in it, and starts again in the next", () => {
    let now = 1_000_000
    const hit = makeAddressLimit({ limit: 3, windowSeconds: 60 }, () => now)
    expect([hit("203.0.113.1"), hit("203.0.113.1"), hit("203.0.113.1")].every((verdict) => verdict.allowed)).toBe(true)
    now += 15_500
    expect(hit("203.0.113.1")).toEqual({ allowed: false, hits: 4, retryAfterSeconds: 45 })
    expect(hit("203.0.113.2").allowed).toBe(true)
    now += 44_500
    expect(hit("203.0.113.1")).toEqual({ allowed: true, hits: 1, retryAfterSeconds: 60 })
  })

  it("counts an IPv6 address by its /64 and a mapped IPv4 address as the IPv4 one", () => {
    expect(subjectOf("2001:db8:1:2:aaaa::1")).toBe("2001:db8:1:2::/64")
    expect(subjectOf("2001:DB8:1:2:ffff:ffff:ffff:ffff")).toBe("2001:db8:1:2::/64")
    expect(subjectOf("::ffff:203.0.113.7")).toBe("203.0.113.7")
    expect(subjectOf("203.0.113.7")).toBe("203.0.113.7")
    expect(subjectOf("unknown")).toBe("unknown")
  })

  it("counts at most `tracked` addresses a window: memory stays bounded however many addresses come", () => {
    let now = 0
    const hit = makeAddressLimit({ limit: 1, windowSeconds: 60, tracked: 2 }, () => now)
    hit("198.51.100.1")
    hit("198.51.100.2")
    expect(hit("198.51.100.1").allowed).toBe(false)
    // A third address is not counted in this window: it is not refused either.
    expect([hit("198.51.100.3"), hit("198.51.100.3")].map((verdict) => verdict.allowed)).toEqual([true, true])
    now += 60_000
    hit("198.51.100.3")
    expect(hit("198.51.100.3").allowed).toBe(false)
  })
})
