import type { Passkey } from "../../contract/passkeys.ts"
import type { ListPage } from "../../machines/list.ts"
import type { CallAs } from "./client.ts"
import { onePage } from "./one-page.ts"

/** The effect client loads on first use (src/api/client.ts). */
const api = () => import("./client.ts")

/** The signed-in person's passkeys, newest first: one page. */
export const listPasskeys = async (): Promise<ListPage<Passkey>> => {
  const { callApi } = await api()
  return onePage((await callApi((client) => client.passkeys.list())).data.passkeys)
}

/** The browser or the authenticator said no (cancelled, timed out, not allowed): not the server. */
export class CeremonyRefused extends Error {}

/**
 * Adds a passkey named `name` (docs/api.md, "Passkeys"): the server's options, the browser's
 * ceremony through `@simplewebauthn/browser` (loaded now, never with the first screen), the
 * answer back. A refusal of the browser or the device rejects with `CeremonyRefused`.
 */
export const addPasskey = async (name: string): Promise<Passkey> => {
  const [{ callApi }, { startRegistration }] = await Promise.all([api(), import("@simplewebauthn/browser")])
  const options = (await callApi((client) => client.passkeys.registrationOptions())).data
  const credential = await startRegistration({ optionsJSON: options as Parameters<typeof startRegistration>[0]["optionsJSON"] }).catch((error: unknown) => {
    throw new CeremonyRefused(error instanceof Error ? error.message : String(error))
  })
  const payload = { name, credential: credential as never }
  return (await callApi((client) => client.passkeys.register({ payload }))).data.passkey
}

export const removePasskey = async (target: Passkey, as?: CallAs): Promise<void> => {
  const { callApi } = await api()
  await callApi((client) => client.passkeys.remove({ params: { id: target._id } }), as)
}
