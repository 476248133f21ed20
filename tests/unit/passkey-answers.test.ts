import { describe, expect, it } from "vitest"
import { createActor, fromPromise, waitFor } from "xstate"
import type { AdminUser } from "../../contract/auth.ts"
import { authMachine } from "../../machines/auth.ts"
import { confirmAgainMachine, type ConfirmStatus } from "../../machines/confirm-again.ts"
import { sendableAnswer } from "../../src/api/device-answer.ts"
import { softAuthenticator } from "../support/authenticator.ts"

/**
 * A device's passkey answer the contract refuses is a refusal, never "cancelled" (docs/console.md,
 * "Passkeys"): before, an ML-DSA signature over the contract's cap was dropped by the console's own
 * encoding and the person read "No passkey was used: your device or browser cancelled it…". The
 * answers are a soft authenticator's (the browser's own are tests/e2e/passkey-paths.test.ts).
 */
const options = { challenge: "Y2hhbGxlbmdl", rpId: "localhost" }
const origin = "http://localhost:8080"
const refusedWords = "This passkey could not be verified. Try again, or use another one."

describe("a device's passkey answer, before it is sent", () => {
  it("takes answers of every algorithm offered at their real sizes, ML-DSA-87's 4,627-byte signature too", async () => {
    for (const algorithm of ["ES256", "ML-DSA-44", "ML-DSA-65", "ML-DSA-87"] as const) {
      const answer = softAuthenticator(algorithm).authenticate(options, origin)
      await expect(sendableAnswer(answer, "get")).resolves.toEqual(answer)
    }
  })

  it("takes optional keys the browser names with no value as absent, as JSON sends them", async () => {
    const answer = softAuthenticator("ML-DSA-44").authenticate(options, origin)
    // As @simplewebauthn/browser answers when the device gives no user handle or attachment.
    const named = { ...answer, authenticatorAttachment: undefined, response: { ...answer.response, userHandle: undefined } }
    expect(JSON.parse(JSON.stringify(named))).toEqual(JSON.parse(JSON.stringify(answer)))
    const sent = await sendableAnswer(named, "get")
    expect(Object.keys(sent)).not.toContain("authenticatorAttachment")
    expect(Object.keys(sent.response)).not.toContain("userHandle")
    const made = softAuthenticator().register({ challenge: options.challenge, rp: { id: options.rpId } }, origin)
    const bare = { ...made, authenticatorAttachment: undefined, response: { ...made.response, publicKey: undefined, transports: undefined } }
    const madeSent = await sendableAnswer(bare, "create")
    expect(Object.keys(madeSent.response).sort()).toEqual(["attestationObject", "clientDataJSON"])
  })

  it("refuses one the contract refuses with a 400 in the contract's words", async () => {
    const answer = softAuthenticator("ML-DSA-87").authenticate(options, origin)
    const oversized = { ...answer, response: { ...answer.response, signature: `${answer.response.signature}${"A".repeat(4_000)}` } }
    await expect(sendableAnswer(oversized, "get")).rejects.toEqual({ status: 400, message: refusedWords })
  })

  it("is said as a refusal by the sign-in and the confirmation, not as the device cancelling", async () => {
    const answer = softAuthenticator("ML-DSA-87").authenticate(options, origin)
    const refusal = () => sendableAnswer({ ...answer, response: { ...answer.response, signature: "A".repeat(7_000) } }, "get")
    const signIn = createActor(
      authMachine.provide({
        actors: { passkeySignIn: fromPromise<{ token: string; user: AdminUser }>(() => refusal().then(() => Promise.reject(new Error("sent")))) }
      }),
      { input: { storedToken: null } }
    ).start()
    signIn.send({ type: "SIGN_IN_WITH_PASSKEY" })
    const signedOut = await waitFor(signIn, (snapshot) => snapshot.matches("unauthenticated") && snapshot.context.error !== null)
    expect(signedOut.context.error).toBe("This passkey could not sign you in. Use another one, or sign in with a code by e-mail.")
    const confirm = createActor(
      confirmAgainMachine.provide({
        actors: {
          status: fromPromise<ConfirmStatus>(() => Promise.resolve({ method: "passkey", confirmedUntil: null })),
          confirmWithPasskey: fromPromise<unknown>(refusal)
        }
      })
    ).start()
    confirm.send({ type: "ASK" })
    await waitFor(confirm, (snapshot) => snapshot.matches({ passkey: "offered" }))
    confirm.send({ type: "USE_PASSKEY" })
    const asked = await waitFor(confirm, (snapshot) => snapshot.matches({ passkey: "offered" }) && snapshot.context.error !== null)
    expect(asked.context.error).toBe(refusedWords)
  })
})
