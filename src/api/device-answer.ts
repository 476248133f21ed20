import type { CallFailure } from "../../contract/call-failure.ts"

/**
 * A device's passkey answer as the contract takes it (contract/passkeys.ts), before it is sent.
 * One the contract refuses is refused as the server would refuse it, a 400 in the contract's words:
 * the console then says the answer was refused, never that the device cancelled
 * (docs/console.md, "Passkeys"). Loaded with the ceremony, never with the first screen.
 *
 * What is checked and sent is the answer as JSON carries it: a browser's answer (and
 * `@simplewebauthn/browser`'s) names optional keys it has no value for (`userHandle`,
 * `authenticatorAttachment`, `publicKey`…) with `undefined`, which JSON leaves out, so they are
 * absent, as the server reads them.
 */
export const sendableAnswer = async <A>(answer: A, ceremony: "create" | "get"): Promise<A> => {
  const [{ Schema }, contract] = await Promise.all([import("effect"), import("../../contract/passkeys.ts")])
  const schema = ceremony === "create" ? contract.RegistrationCredential : contract.AuthenticationCredential
  const sent: unknown = JSON.parse(JSON.stringify(answer))
  if (Schema.is(schema)(sent)) return sent as A
  const refused: CallFailure = { status: 400, message: contract.passkeyMessages.notVerified }
  throw refused
}
