import { Effect, Option } from "effect"
import { HttpRouter, HttpServerRequest } from "effect/http"
import { type IpRange, ipInRange, normalizeIpRange, parseIpRange } from "../../contract/ip-rules.ts"
import { Config } from "./config.ts"
import { apiFailure } from "./http.ts"

/**
 * The client's address (docs/security.md, "Client address"). The socket's peer, unless that peer
 * is one of the proxies `TRUST_PROXY` names: then the last `X-Forwarded-For` entry, the one our
 * proxy appended. Any other peer's header is ignored, so nobody else can choose their address.
 */
export type ClientAddress =
  | { readonly ip: string }
  /** A trusted proxy sent a last entry that is not one address: the request is refused. */
  | { readonly invalid: string }

export const clientAddress = (peer: string, forwardedFor: string | undefined, trustedProxies: ReadonlyArray<IpRange>): ClientAddress => {
  if (forwardedFor === undefined || !trustedProxies.some((range) => ipInRange(peer, range))) return { ip: peer }
  const last = forwardedFor
    .split(",")
    .map((part) => part.trim())
    .filter((part) => part !== "")
    .at(-1)
  if (last === undefined) return { ip: peer }
  const single = parseIpRange(last)
  const isAddress = single !== undefined && !last.includes("/")
  const ip = isAddress ? normalizeIpRange(last) : undefined
  return ip === undefined ? { invalid: last } : { ip }
}

const addressOf = Effect.gen(function* () {
  const request = yield* HttpServerRequest.HttpServerRequest
  const config = yield* Config
  const peer = Option.getOrElse(request.remoteAddress, () => "unknown")
  return clientAddress(peer, request.headers["x-forwarded-for"], config.trustedProxies)
})

/** The client's address for a request that passed `forwardedForCheck`. */
export const clientIp = Effect.map(addressOf, (address) => ("ip" in address ? address.ip : "unknown"))

export const forwardedForMessage = "Invalid X-Forwarded-For: its last entry must be one IP address."

/** A trusted proxy's `X-Forwarded-For` whose last entry is not an address is refused with 400. */
export const forwardedForCheck = HttpRouter.middleware(
  Effect.gen(function* () {
    const config = yield* Config
    return (httpEffect) =>
      Effect.flatMap(addressOf.pipe(Effect.provideService(Config, config)), (address) =>
        "invalid" in address ? Effect.succeed(apiFailure(400, forwardedForMessage)) : httpEffect
      )
  }),
  { global: true }
)

const loopback = ["127.0.0.0/8", "::1"].map((range) => parseIpRange(range)).filter((range) => range !== undefined)

/**
 * The request comes from this server's own host, straight or through a proxy `TRUST_PROXY`
 * names on behalf of a client on this host. A request some other proxy relayed (it carries
 * `X-Forwarded-For` from a peer that is not a trusted proxy) is from somewhere else, even when
 * that proxy runs on this host.
 */
export const fromThisHost = Effect.gen(function* () {
  const request = yield* HttpServerRequest.HttpServerRequest
  const config = yield* Config
  const peer = Option.getOrElse(request.remoteAddress, () => "unknown")
  const forwardedFor = request.headers["x-forwarded-for"]
  if (forwardedFor !== undefined && !config.trustedProxies.some((range) => ipInRange(peer, range))) return false
  const address = clientAddress(peer, forwardedFor, config.trustedProxies)
  return "ip" in address && loopback.some((range) => ipInRange(address.ip, range))
})
