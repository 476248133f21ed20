/**
 * Addresses and ranges of the allowed-IP list (docs/api.md, "Allowed addresses"): an IPv4 or
 * IPv6 address, or a CIDR range of either. Pure, so the console checks what the server checks.
 */

export interface IpRange {
  readonly family: 4 | 6
  /** The network's address, its host bits cleared, as 4 or 16 bytes. */
  readonly bytes: ReadonlyArray<number>
  readonly prefix: number
}

const parseIpv4 = (text: string): Array<number> | undefined => {
  const parts = text.split(".")
  if (parts.length !== 4) return undefined
  const bytes = parts.map((part) => (/^(0|[1-9]\d{0,2})$/.test(part) ? Number(part) : Number.NaN))
  return bytes.every((byte) => byte >= 0 && byte <= 255) ? bytes : undefined
}

const parseIpv6 = (text: string): Array<number> | undefined => {
  if (!/^[0-9a-f:.]+$/i.test(text) || text.split("::").length > 2) return undefined
  // A trailing dotted IPv4 (::ffff:1.2.3.4) stands for the last two groups.
  let tail: Array<number> = []
  let head = text
  if (text.includes(".")) {
    const lastColon = text.lastIndexOf(":")
    const v4 = parseIpv4(text.slice(lastColon + 1))
    if (v4 === undefined) return undefined
    tail = v4
    head = text.slice(0, lastColon + 1)
    if (!head.endsWith("::")) head = head.slice(0, -1)
  }
  const groupsWanted = tail.length === 4 ? 6 : 8
  const [left = "", right] = head.split("::")
  const leftGroups = left === "" ? [] : left.split(":")
  const rightGroups = right === undefined || right === "" ? [] : right.split(":")
  if (![...leftGroups, ...rightGroups].every((group) => /^[0-9a-f]{1,4}$/i.test(group))) return undefined
  const missing = groupsWanted - leftGroups.length - rightGroups.length
  if (right === undefined ? missing !== 0 : missing < 1) return undefined
  const groups = [...leftGroups, ...Array<string>(right === undefined ? 0 : missing).fill("0"), ...rightGroups].map((group) => Number.parseInt(group, 16))
  return [...groups.flatMap((group) => [group >> 8, group & 0xff]), ...tail]
}

/** Clears the bits past `prefix`. */
const network = (bytes: ReadonlyArray<number>, prefix: number) =>
  bytes.map((byte, index) => {
    const kept = Math.min(8, Math.max(0, prefix - index * 8))
    return byte & (0xff << (8 - kept)) & 0xff
  })

/** An address or range as written (`203.0.113.7`, `10.0.0.0/8`, `2001:db8::/32`), or undefined. */
export const parseIpRange = (text: string): IpRange | undefined => {
  const trimmed = text.trim()
  if (trimmed.length === 0 || trimmed.length > 64) return undefined
  const [address = "", prefixText, ...rest] = trimmed.split("/")
  if (rest.length > 0) return undefined
  const v4 = parseIpv4(address)
  const bytes = v4 ?? parseIpv6(address)
  if (bytes === undefined) return undefined
  const family = v4 === undefined ? 6 : 4
  const max = family === 4 ? 32 : 128
  if (prefixText !== undefined && !/^(0|[1-9]\d{0,2})$/.test(prefixText)) return undefined
  const prefix = prefixText === undefined ? max : Number(prefixText)
  if (prefix > max) return undefined
  return { family, bytes: network(bytes, prefix), prefix }
}

/** IPv4 in IPv6 clothing (`::ffff:203.0.113.7`), as sockets report it, is the IPv4 address. */
const unmapped = (range: IpRange): IpRange => {
  const isMapped =
    range.family === 6 && range.prefix === 128 && range.bytes.slice(0, 10).every((byte) => byte === 0) && range.bytes[10] === 0xff && range.bytes[11] === 0xff
  return isMapped ? { family: 4, bytes: range.bytes.slice(12), prefix: 32 } : range
}

/** The one way a range is written once stored: `10.0.0.0/8`, `2001:db8::/32`, a single address bare. */
export const formatIpRange = (range: IpRange): string => {
  const address = range.family === 4 ? range.bytes.join(".") : ipv6Text(range.bytes)
  return range.prefix === (range.family === 4 ? 32 : 128) ? address : `${address}/${range.prefix}`
}

const ipv6Text = (bytes: ReadonlyArray<number>) => {
  const groups = Array.from({ length: 8 }, (_, index) => ((bytes[index * 2] ?? 0) << 8) | (bytes[index * 2 + 1] ?? 0))
  // The longest run of two or more zero groups becomes "::" (RFC 5952).
  let best = { start: -1, length: 0 }
  for (let start = 0; start < 8;) {
    if (groups[start] !== 0) {
      start += 1
      continue
    }
    let end = start
    while (end < 8 && groups[end] === 0) end += 1
    if (end - start > best.length && end - start >= 2) best = { start, length: end - start }
    start = end
  }
  const hex = groups.map((group) => group.toString(16))
  if (best.start < 0) return hex.join(":")
  return `${hex.slice(0, best.start).join(":")}::${hex.slice(best.start + best.length).join(":")}`
}

/** The canonical text of an address or range, or undefined when it is neither. */
export const normalizeIpRange = (text: string): string | undefined => {
  const range = parseIpRange(text)
  return range === undefined ? undefined : formatIpRange(unmapped(range))
}

/** Whether `address` (as a socket reports it) lies in `range`. */
export const ipInRange = (address: string, range: IpRange): boolean => {
  const parsed = parseIpRange(address)
  if (parsed === undefined) return false
  const ip = unmapped(parsed)
  const within = unmapped(range)
  if (ip.family !== within.family) return false
  const masked = network(ip.bytes, within.prefix)
  return masked.every((byte, index) => byte === within.bytes[index])
}

export const ipMessages = {
  invalid: "must be an IPv4 or IPv6 address, or a CIDR range such as 203.0.113.0/24",
  refused: "Your address is not allowed.",
  lockOut: (ip: string) => `This change would lock you out: your address ${ip} would no longer be allowed. Add it first.`,
  duplicate: (ip: string) => `${ip} is already allowed.`,
  notFound: "This address is no longer on the list. Reload it."
} as const
