import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { ipInRange, normalizeIpRange, parseIpRange } from "../../contract/ip-rules.ts"
import { describeUserAgent } from "../../src/features/sessions/user-agent.ts"

const ipv4 = fc.tuple(fc.nat(255), fc.nat(255), fc.nat(255), fc.nat(255)).map((parts) => parts.join("."))
const ipv6 = fc.array(fc.nat(0xffff), { minLength: 8, maxLength: 8 }).map((groups) => groups.map((group) => group.toString(16)).join(":"))

describe("allowed-address rules", () => {
  it("reads the forms people write and refuses the rest", () => {
    expect(normalizeIpRange(" 203.0.113.7 ")).toBe("203.0.113.7")
    expect(normalizeIpRange("10.1.2.3/8")).toBe("10.0.0.0/8")
    expect(normalizeIpRange("2001:DB8:0:0:0:0:0:1/64")).toBe("2001:db8::/64")
    expect(normalizeIpRange("::ffff:192.0.2.1")).toBe("192.0.2.1")
    expect(normalizeIpRange("::1")).toBe("::1")
    expect(normalizeIpRange("0.0.0.0/0")).toBe("0.0.0.0/0")
    for (const bad of [
      "",
      "256.1.1.1",
      "1.2.3",
      "01.2.3.4",
      "1.2.3.4/33",
      "1.2.3.4/",
      "::1::",
      "fe80::1%eth0",
      "2001:db8::/129",
      "1:2:3:4:5:6:7:8:9",
      "localhost"
    ]) {
      expect(normalizeIpRange(bad), bad).toBeUndefined()
    }
  })

  it("puts an address in every range made from it, and its normal form is stable", () => {
    fc.assert(
      fc.property(
        fc.oneof(
          ipv4.map((ip) => [ip, 32] as const),
          ipv6.map((ip) => [ip, 128] as const)
        ),
        fc.nat(128),
        ([ip, max], prefix) => {
          const bits = Math.min(prefix, max)
          const range = parseIpRange(`${ip}/${bits}`)!
          expect(ipInRange(ip, range)).toBe(true)
          const normal = normalizeIpRange(`${ip}/${bits}`)!
          expect(normalizeIpRange(normal)).toBe(normal)
        }
      )
    )
  })

  it("keeps addresses outside a range out, across families too", () => {
    expect(ipInRange("198.51.100.7", parseIpRange("203.0.113.0/24")!)).toBe(false)
    expect(ipInRange("203.0.114.1", parseIpRange("203.0.113.0/24")!)).toBe(false)
    expect(ipInRange("2001:db9::1", parseIpRange("2001:db8::/32")!)).toBe(false)
    expect(ipInRange("::ffff:203.0.113.5", parseIpRange("203.0.113.0/24")!)).toBe(true)
    expect(ipInRange("203.0.113.5", parseIpRange("2001:db8::/32")!)).toBe(false)
    expect(ipInRange("not an address", parseIpRange("0.0.0.0/0")!)).toBe(false)
  })
})

describe("a session's browser", () => {
  it("names common browsers and systems, Edge and Opera before the Chrome they also claim", () => {
    expect(describeUserAgent("Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Safari/537.36")).toBe(
      "Chrome 142 on Linux"
    )
    expect(describeUserAgent("Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0 Safari/537.36 Edg/142.0")).toBe(
      "Edge 142 on Windows"
    )
    expect(describeUserAgent("Mozilla/5.0 (Macintosh; Intel Mac OS X 14_1) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Safari/605.1.15")).toBe(
      "Safari 17 on macOS"
    )
    expect(
      describeUserAgent(
        "Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Mobile/15E148 Safari/604.1"
      )
    ).toBe("Safari 17 on iOS")
    expect(describeUserAgent("Mozilla/5.0 (X11; Linux x86_64; rv:132.0) Gecko/20100101 Firefox/132.0")).toBe("Firefox 132 on Linux")
    expect(describeUserAgent("curl/8.5.0")).toBe("curl")
    expect(describeUserAgent(null)).toBe("Unknown browser")
  })
})
