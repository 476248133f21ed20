import type { ConfirmStatus } from "../../machines/confirm-again.ts"
import { askDevice, webauthn } from "./auth.ts"

/** The effect client loads on first use (src/api/client.ts). */
const api = () => import("./client.ts")

/** How this session confirms it's you, and until when it needs not (docs/api.md, "Confirm it's you"). */
export const confirmStatus = async (): Promise<ConfirmStatus> => {
  const { callApi } = await api()
  return (await callApi((client) => client.confirm.status())).data
}

/** The server's options naming the person's passkeys, the device's answer, the confirmation. */
export const confirmWithPasskey = async (): Promise<ConfirmStatus> => {
  const device = webauthn()
  const { callApi } = await api()
  const options = (await callApi((client) => client.confirm.options())).data
  const credential = await askDevice(options, device)
  return (await callApi((client) => client.confirm.passkey({ payload: { credential } }))).data
}

export const sendConfirmCode = async (): Promise<void> => {
  const { callApi } = await api()
  await callApi((client) => client.confirm.sendCode())
}

export const verifyConfirmCode = async (code: string): Promise<ConfirmStatus> => {
  const { callApi } = await api()
  return (await callApi((client) => client.confirm.verifyCode({ payload: { code } }))).data
}
