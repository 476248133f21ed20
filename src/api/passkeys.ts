import type { Passkey, PasskeyRule } from "../../contract/passkeys.ts"
import type { Role } from "../../contract/common.ts"
import type { ListPage } from "../../machines/list.ts"
import type { CallAs } from "./client.ts"
import { onePage } from "./one-page.ts"

/** The effect client loads on first use (src/api/client.ts). */
const api = () => import("./client.ts")

/** The passkeys page: the person's passkeys, with the recovery codes left and what their role requires. */
export type PasskeysPage = ListPage<Passkey> & { readonly recoveryCodesLeft: number; readonly required: boolean; readonly dueBy: string | null }

/** The signed-in person's passkeys, newest first: one page. */
export const listPasskeys = async (): Promise<PasskeysPage> => {
  const { callApi } = await api()
  const { passkeys, recoveryCodesLeft, required, dueBy } = (await callApi((client) => client.passkeys.list())).data
  return { ...onePage(passkeys), recoveryCodesLeft, required, dueBy }
}

export const renamePasskey = async (id: string, name: string): Promise<Passkey> => {
  const { callApi } = await api()
  return (await callApi((client) => client.passkeys.rename({ params: { id }, payload: { name } }))).data.passkey
}

/** Ten new recovery codes, shown this once; the earlier ones stop working. */
export const makeRecoveryCodes = async (): Promise<ReadonlyArray<string>> => {
  const { callApi } = await api()
  return (await callApi((client) => client.passkeys.recoveryCodes())).data.codes
}

/** Which roles require a passkey (super admins). */
export const passkeyRules = async (): Promise<ReadonlyArray<PasskeyRule>> => {
  const { callApi } = await api()
  return (await callApi((client) => client.passkeys.rules())).data.rules
}

export const setPasskeyRule = async (role: Role, required: boolean, graceDays: number): Promise<PasskeyRule> => {
  const { callApi } = await api()
  return (await callApi((client) => client.passkeys.setRule({ params: { role }, payload: { required, graceDays } }))).data.rule
}

/** A super admin's reset of another person's passkeys: their sessions end; a code alone signs them in for 3 days to add one. */
export const resetPasskeys = async (adminId: string): Promise<{ readonly removed: number; readonly graceUntil: string }> => {
  const { callApi } = await api()
  return (await callApi((client) => client.passkeys.reset({ params: { id: adminId } }))).data
}

/** The browser or the authenticator said no (cancelled, timed out, not allowed): not the server. */
export class CeremonyRefused extends Error {}

/**
 * Adds a passkey named `name` (docs/api.md, "Passkeys"): the server's options, the browser's
 * ceremony through `@simplewebauthn/browser` (loaded now, never with the first screen), the
 * answer back. A refusal of the browser or the device rejects with `CeremonyRefused`; an answer
 * the contract refuses, with a 400 (src/api/device-answer.ts).
 */
export const addPasskey = async (name: string): Promise<Passkey> => {
  const [{ callApi }, { startRegistration }] = await Promise.all([api(), import("@simplewebauthn/browser")])
  const options = (await callApi((client) => client.passkeys.registrationOptions())).data
  const credential = await startRegistration({ optionsJSON: options as Parameters<typeof startRegistration>[0]["optionsJSON"] }).catch((error: unknown) => {
    throw new CeremonyRefused(error instanceof Error ? error.message : String(error))
  })
  const { sendableAnswer } = await import("./device-answer.ts")
  const payload = { name, credential: (await sendableAnswer(credential, "create")) as never }
  return (await callApi((client) => client.passkeys.register({ payload }))).data.passkey
}

export const removePasskey = async (target: Passkey, as?: CallAs): Promise<void> => {
  const { callApi } = await api()
  await callApi((client) => client.passkeys.remove({ params: { id: target._id } }), as)
}
