import { normalizeIpRange } from "../../contract/ip-rules.ts"
import type { RateLimitVerdict } from "./rate-limit.ts"

/**
 * Hits per client address counted in this process's memory, in fixed windows, for what is asked
 * too often to cost a database write each (the public's reads; docs/decisions.md, "A per-address
 * limit on the public's reads"). Each server counts on its own, so behind a proxy over N servers
 * an address gets up to N times the limit; what the limit protects, a server's own database
 * connections and time, is per server too.
 *
 * Memory is bounded: every count is forgotten when its window ends, and at most `tracked`
 * addresses are counted in one window (past that a new address is not counted: one who holds
 * that many addresses is bounded by the admission of the reads, not by this).
 */
export interface AddressLimit {
  readonly limit: number
  readonly windowSeconds: number
  /** At most this many addresses counted in one window. */
  readonly tracked?: number
}

const DEFAULT_TRACKED = 100_000

/**
 * Whom a hit counts against: the address, or for IPv6 its /64, what one subscriber is usually
 * given (so one machine can't be a new address for every request).
 */
export const subjectOf = (address: string): string => {
  const single = normalizeIpRange(address) ?? address
  return single.includes(":") ? (normalizeIpRange(`${single}/64`) ?? single) : single
}

/** A counter for `rule`: each call counts one hit for an address and says whether it is within the limit. */
export const makeAddressLimit = (rule: AddressLimit, now: () => number = Date.now) => {
  const windowMs = rule.windowSeconds * 1000
  const tracked = rule.tracked ?? DEFAULT_TRACKED
  let windowStart = now()
  let hits = new Map<string, number>()
  return (address: string): RateLimitVerdict => {
    const at = now()
    if (at - windowStart >= windowMs) {
      windowStart = at
      hits = new Map()
    }
    const retryAfterSeconds = Math.max(1, Math.ceil((windowStart + windowMs - at) / 1000))
    const subject = subjectOf(address)
    const seen = hits.get(subject)
    if (seen === undefined && hits.size >= tracked) return { allowed: true, hits: 0, retryAfterSeconds }
    const count = (seen ?? 0) + 1
    hits.set(subject, count)
    return { allowed: count <= rule.limit, hits: count, retryAfterSeconds }
  }
}
