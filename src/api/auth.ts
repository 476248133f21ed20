import type { AdminUser, OtpRequested, SignedIn } from "../../contract/auth.ts"
import type { Role } from "../../contract/common.ts"
import type { Health } from "../../contract/system.ts"
import { callApi } from "./client.ts"

export const requestOtp = (email: string, role: Role): Promise<OtpRequested> =>
  callApi(undefined, (client) => client.auth.signIn({ payload: { email, role } })).then((answer) => {
    if (!("requiresOTP" in answer)) throw { status: undefined, message: "Unexpected answer from the server" }
    return answer
  })

export const verifyOtp = (email: string, otp: string): Promise<SignedIn> =>
  callApi(undefined, (client) => client.auth.signIn({ payload: { email, otp } })).then((answer) => {
    if (!("token" in answer)) throw { status: undefined, message: "Unexpected answer from the server" }
    return answer
  })

export const checkSession = (token: string): Promise<AdminUser> =>
  callApi(token, (client) => client.auth.check()).then((answer) => answer.user)

export const endSession = (token: string): Promise<void> =>
  callApi(token, (client) => client.auth.logout()).then(() => undefined)

export const fetchHealth = (): Promise<Health> => callApi(undefined, (client) => client.system.health())
