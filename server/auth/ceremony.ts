import { SettingsService } from "@simplewebauthn/server"
import { COSEALG, isoBase64URL } from "@simplewebauthn/server/helpers"
import { Effect } from "effect"
import { HttpServer } from "effect/http"
import { Config } from "../platform/config.ts"

/**
 * What every WebAuthn ceremony of the console shares (docs/security.md, "Passkeys"): how long its
 * challenge lives, the algorithms a passkey may use, the relying party it is bound to, and the
 * challenge an answer names. Adding a passkey (passkeys.ts), signing in with one
 * (passkey-sign-in.ts) and confirming it's you (confirm.ts) use them alike.
 */

/** How long a ceremony's challenge may be answered. */
export const CHALLENGE_SECONDS = 300

/**
 * Asks without Node's warnings: Node 24 calls its ML-DSA WebCrypto experimental and says so on
 * stderr the first time it is asked, once per algorithm, and the command-line tools' stderr is
 * what a person reads (docs/architecture.md, "Backup and restore"). Node warns once per feature, so verifying later is
 * quiet too.
 */
const quietly = <A>(ask: () => A): A => {
  const emit = process.emitWarning.bind(process)
  process.emitWarning = () => undefined
  try {
    return ask()
  } finally {
    process.emitWarning = emit
  }
}

/**
 * The algorithms a new passkey may use, most preferred first, offered and accepted alike
 * (docs/decisions.md, "Passkeys"): ML-DSA where this Node's WebCrypto verifies it (Node 24 does),
 * then EdDSA, ES256 and RS256. The contract takes each one's signature at its real size
 * (contract/passkeys.ts, `MAX_SIGNATURE_BYTES`).
 */
export const algorithms: ReadonlyArray<COSEALG> = [
  ...(quietly(() => SettingsService.runtimeSupportsPQC()) ? [COSEALG.ML_DSA_44, COSEALG.ML_DSA_65, COSEALG.ML_DSA_87] : []),
  COSEALG.EdDSA,
  COSEALG.ES256,
  COSEALG.RS256
]

/**
 * Where passkeys are bound: the console's public address (`PUBLIC_ORIGIN`) and its host; unset,
 * `http://localhost:` and the port the server listens on (never a request's own Host, which a
 * relaying page would choose).
 */
export const relyingParty = Effect.gen(function* () {
  const config = yield* Config
  const server = yield* HttpServer.HttpServer
  const port = "port" in server.address ? server.address.port : config.port
  const origin = config.publicOrigin ?? `http://localhost:${port}`
  return { origin, id: new URL(origin).hostname }
})

/**
 * The challenge an authenticator signed, as its client data says; undefined when unreadable, or
 * when a cross-origin frame asked (this console refuses to be framed: defence in depth).
 */
export const challengeOf = (credential: { readonly response: { readonly clientDataJSON: string } }): string | undefined => {
  try {
    const data: unknown = JSON.parse(isoBase64URL.toUTF8String(credential.response.clientDataJSON))
    if (typeof data !== "object" || data === null || ("crossOrigin" in data && data.crossOrigin === true)) return undefined
    return "challenge" in data && typeof data.challenge === "string" ? data.challenge : undefined
  } catch {
    return undefined
  }
}
