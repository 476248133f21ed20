import { isoBase64URL, isoCBOR } from "@simplewebauthn/server/helpers"
import { createHash, generateKeyPairSync, randomBytes, sign } from "node:crypto"
import type { Page } from "playwright-core"
import { call } from "./http.ts"

/**
 * A passkey authenticator in the test process, as a phone or a security key would answer
 * `navigator.credentials.create` (WebAuthn, "none" attestation, an ES256 key on P-256), for the
 * API tests (docs/testing.md). The browser tests use Chromium's own virtual authenticator.
 */
export interface RegistrationAnswer {
  readonly id: string
  readonly rawId: string
  readonly type: "public-key"
  readonly response: { readonly clientDataJSON: string; readonly attestationObject: string; readonly transports: ReadonlyArray<string> }
  readonly clientExtensionResults: Record<string, never>
}

const sha256 = (data: string | Uint8Array) => new Uint8Array(createHash("sha256").update(data).digest())

/** The algorithms the soft authenticator makes keys for: ES256 (P-256), or ML-DSA as today's Chromium prefers it. */
export type SoftAlgorithm = "ES256" | "ML-DSA-44" | "ML-DSA-65" | "ML-DSA-87"

const mlDsaCose: Record<Exclude<SoftAlgorithm, "ES256">, number> = { "ML-DSA-44": -48, "ML-DSA-65": -49, "ML-DSA-87": -50 }

/** A new key pair, its COSE public key as an authenticator writes it, and how it signs (ES256: SHA-256 with ECDSA, DER). */
const keyFor = (algorithm: SoftAlgorithm) => {
  if (algorithm === "ES256") {
    const { publicKey, privateKey } = generateKeyPairSync("ec", { namedCurve: "P-256" })
    const jwk = publicKey.export({ format: "jwk" })
    const coseKey = new Map<number, number | Uint8Array>([
      [1, 2],
      [3, -7],
      [-1, 1],
      [-2, new Uint8Array(Buffer.from(jwk.x ?? "", "base64url"))],
      [-3, new Uint8Array(Buffer.from(jwk.y ?? "", "base64url"))]
    ])
    return { privateKey, coseKey, sign: (data: Uint8Array) => sign("sha256", data, privateKey) }
  }
  const { publicKey, privateKey } = generateKeyPairSync(algorithm === "ML-DSA-44" ? "ml-dsa-44" : algorithm === "ML-DSA-65" ? "ml-dsa-65" : "ml-dsa-87")
  const jwk = publicKey.export({ format: "jwk" }) as { readonly pub?: string }
  // COSE's AKP key (kty 7): the algorithm and the raw public key.
  const coseKey = new Map<number, number | Uint8Array>([
    [1, 7],
    [3, mlDsaCose[algorithm]],
    [-1, new Uint8Array(Buffer.from(jwk.pub ?? "", "base64url"))]
  ])
  return { privateKey, coseKey, sign: (data: Uint8Array) => sign(null, data, privateKey) }
}

export const softAuthenticator = (algorithm: SoftAlgorithm = "ES256") => {
  const { privateKey, coseKey, sign: signWithKey } = keyFor(algorithm)
  let signCount = 0
  const credentialId = new Uint8Array(randomBytes(16))
  const id = isoBase64URL.fromBuffer(credentialId)
  return {
    id,
    /** Its key and id as Chromium's virtual authenticator takes them (`WebAuthn.addCredential`: base64). */
    forChromium: {
      credentialId: Buffer.from(credentialId).toString("base64"),
      privateKey: privateKey.export({ format: "der", type: "pkcs8" }).toString("base64")
    },
    /**
     * Answers the options' challenge for `origin`, as signed for `rpId` (by default the options'
     * own); `type` the client data's (a wrong one is an attack).
     */
    register: (
      options: { readonly challenge: string; readonly rp: { readonly id: string } },
      origin: string,
      tamper: { readonly rpId?: string; readonly type?: string; readonly challenge?: string } = {}
    ): RegistrationAnswer => {
      const clientData = JSON.stringify({
        type: tamper.type ?? "webauthn.create",
        challenge: tamper.challenge ?? options.challenge,
        origin,
        crossOrigin: false
      })
      const rpIdHash = sha256(tamper.rpId ?? options.rp.id)
      // User present and verified, attested credential data included.
      const flags = 0x01 | 0x04 | 0x40
      const idLength = new Uint8Array([credentialId.length >> 8, credentialId.length & 0xff])
      const authData = new Uint8Array(
        Buffer.concat([rpIdHash, new Uint8Array([flags]), new Uint8Array(4), new Uint8Array(16), idLength, credentialId, isoCBOR.encode(coseKey)])
      )
      const attestation = isoCBOR.encode(
        new Map<string, string | Uint8Array | Map<string, string>>([
          ["fmt", "none"],
          ["attStmt", new Map()],
          ["authData", authData]
        ])
      )
      return {
        id,
        rawId: id,
        type: "public-key",
        response: {
          clientDataJSON: isoBase64URL.fromUTF8String(clientData),
          attestationObject: isoBase64URL.fromBuffer(attestation),
          transports: ["internal"]
        },
        clientExtensionResults: {}
      }
    },
    /**
     * Answers a sign-in's options (`navigator.credentials.get`) for `origin`: the client data and
     * the authenticator data signed with the passkey's key, its counter one more each time.
     */
    authenticate: (
      options: { readonly challenge: string; readonly rpId: string },
      origin: string,
      tamper: { readonly rpId?: string; readonly counter?: number; readonly id?: string } = {}
    ) => {
      const clientData = new TextEncoder().encode(JSON.stringify({ type: "webauthn.get", challenge: options.challenge, origin, crossOrigin: false }))
      signCount = tamper.counter ?? signCount + 1
      const counter = new Uint8Array([(signCount >>> 24) & 0xff, (signCount >>> 16) & 0xff, (signCount >>> 8) & 0xff, signCount & 0xff])
      const authData = new Uint8Array(Buffer.concat([sha256(tamper.rpId ?? options.rpId), new Uint8Array([0x01 | 0x04]), counter]))
      const signature = signWithKey(Buffer.concat([authData, sha256(clientData)]))
      return {
        id: tamper.id ?? id,
        rawId: tamper.id ?? id,
        type: "public-key" as const,
        response: {
          clientDataJSON: isoBase64URL.fromBuffer(clientData),
          authenticatorData: isoBase64URL.fromBuffer(authData),
          signature: isoBase64URL.fromBuffer(new Uint8Array(signature))
        },
        clientExtensionResults: {}
      }
    }
  }
}

/**
 * Chromium's virtual authenticator on `page` (the DevTools protocol's WebAuthn domain): a
 * platform authenticator that verifies its user and answers at once; `holds` puts a soft
 * authenticator's passkey in it for the relying party `rpId`.
 */
export const virtualAuthenticator = async (page: Page) => {
  const devtools = await page.context().newCDPSession(page)
  await devtools.send("WebAuthn.enable")
  const { authenticatorId } = await devtools.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      transport: "internal",
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true
    }
  })
  return {
    credentials: async () => (await devtools.send("WebAuthn.getCredentials", { authenticatorId })).credentials,
    holds: (key: ReturnType<typeof softAuthenticator>, rpId: string, signCount = 0) =>
      devtools.send("WebAuthn.addCredential", {
        authenticatorId,
        credential: { ...key.forChromium, isResidentCredential: true, rpId, userHandle: Buffer.from(key.id).toString("base64"), signCount }
      })
  }
}

/** Registers `key` as a passkey of the person signed in with `token`, answered for `origin`; the new passkey's id. */
// Two passkeys of one person never share a name: each made here has its own.
let keyNames = 0
export const registerPasskey = async (
  url: string,
  token: string,
  key: ReturnType<typeof softAuthenticator>,
  origin: string,
  name = `Test key ${++keyNames}`
) => {
  const asked = await call(url, "POST", "/api/admin/auth/passkeys/options", { token })
  const added = await call(url, "POST", "/api/admin/auth/passkeys", {
    token,
    body: { name, credential: key.register(asked.body.data as { challenge: string; rp: { id: string } }, origin) }
  })
  if (added.status !== 200) throw new Error(`passkey not registered: ${added.text}`)
  return (added.body.data as { passkey: { _id: string } }).passkey._id
}
