import { assertEvent, assign, enqueueActions, fromPromise, setup } from "xstate"
import type { AdminUser } from "../contract/auth.ts"
import type { Role } from "../contract/common.ts"
import { failureOf, serverMessageOr } from "../contract/call-failure.ts"

/** Sign-in errors, docs/product-spec.md §8, word for word. */
export const authErrors = {
  sendRefused: "Failed to send OTP. Please check your email and try again.",
  sendThrew: "An error occurred while requesting OTP.",
  verifyRefused: "Invalid OTP. Please check your email and try again.",
  verifyThrew: "An error occurred during login.",
  /** Ours (docs/console.md, "Passkeys"): the server refused the passkey's answer. */
  passkeyRefused: "This passkey could not sign you in. Use another one, or sign in with a code by e-mail.",
  /** The device or the browser gave no answer (cancelled, timed out, no passkey), or the link is down. */
  passkeyNoAnswer: "No passkey was used: your device or browser cancelled it, or the server could not be reached.",
  /** Ours: the second step or the recovery code's answer did not come (the link is down). */
  stepNoAnswer: "The server could not be reached. Try again.",
  /** Ours: adding the passkey the role requires did not work (the device cancelled it, or the server refused it). */
  addRefused: "The passkey was not added: your device or browser cancelled it, or the server refused it. Try again, or do it later."
} as const

export interface AuthContext {
  readonly token: string | null
  readonly user: AdminUser | null
  /** Who this browser last saw signed in with the stored token: the session while the server can't be reached. */
  readonly remembered: AdminUser | null
  readonly email: string
  readonly role: Role
  readonly error: string | null
  /**
   * Set when the server sent no new code because one was asked for less than a minute ago: the
   * seconds until a new one can be asked for (the code sent before still works).
   */
  readonly resendAfterSeconds: number | null
  /** The attempt the code request's answer named: the code is sent with it (docs/security.md, "Sign-in"). */
  readonly attempt: string | null
  /** The second step a right code's answer named, when the account's role requires a passkey (docs/security.md, "Passkeys"). */
  readonly step: string | null
  /** Whether the account has recovery codes left to finish the second step with. */
  readonly recoveryCodes: boolean
  /** Until when the code alone signs this person in: their role requires a passkey and they have none. */
  readonly passkeyDueBy: string | null
}

/** What a right code came to: a session (perhaps with a passkey due), or the second step. */
export type VerifyAnswer =
  { readonly token: string; readonly user: AdminUser; readonly passkeyDueBy?: string | undefined } | { readonly step: string; readonly recoveryCodes: boolean }

/** What asking for a code came to: sent (or kept, with when to ask again), or "returned false". */
export interface OtpAnswer {
  readonly success: boolean
  readonly attempt?: string | undefined
  readonly resendAfterSeconds?: number | undefined
}

export type AuthEvent =
  | { readonly type: "SEND_OTP"; readonly email: string; readonly role: Role }
  | { readonly type: "VERIFY"; readonly otp: string }
  | { readonly type: "RESEND" }
  | { readonly type: "USE_DIFFERENT_EMAIL" }
  /** "Sign in with a passkey": the device offers this console's passkey, no e-mail typed. */
  | { readonly type: "SIGN_IN_WITH_PASSKEY" }
  /** The second step: one of the account's passkeys, or one of its recovery codes. */
  | { readonly type: "USE_PASSKEY" }
  | { readonly type: "USE_RECOVERY_CODE"; readonly code: string }
  /** The role requires a passkey and the person has none: add one now, or later within the grace. */
  | { readonly type: "ADD_PASSKEY"; readonly name: string }
  | { readonly type: "SKIP" }
  | { readonly type: "LOGOUT" }
  | { readonly type: "SESSION_EXPIRED" }
  /** The browser has a link again (its `online` event): time to confirm a remembered session. */
  | { readonly type: "LINK_BACK" }

/** How often a remembered session is checked again while the server can't be reached and the browser says nothing. */
export const RECHECK_MS = 10_000

/** No answer from the server (the link is down), or a proxy's word that the server is down or late. */
const unreachable = (error: unknown): boolean => [undefined, 502, 503, 504].includes(failureOf(error).status)

/** A 429 carries the server's own message ("Too many attempts. Try again in 3 minutes."). */
const messageFor = (error: unknown, refused: string, threw: string): string => {
  const failure = failureOf(error)
  if (failure.status === 429) return failure.message
  return failure.status === undefined ? threw : refused
}

const signedOut = {
  token: null,
  user: null,
  remembered: null,
  email: "",
  error: null,
  resendAfterSeconds: null,
  attempt: null,
  step: null,
  recoveryCodes: false,
  passkeyDueBy: null
} as const

/**
 * docs/product-spec.md §4, "Auth": a stored token is checked at start (spinner; none when start-up's
 * check has already answered, docs/architecture.md "First screen"; none for the person this
 * browser remembers the token for, whose screens open at once while the check runs, `confirming`:
 * docs/decisions.md, "A reload opens at once"), then sign-in runs in two steps (send the code,
 * verify it), or in one with a passkey (ours: docs/console.md, "Passkeys"). Calls and storage are provided by the console (and by
 * tests): the machine itself never fetches and never touches storage.
 *
 * A check the server could not answer (docs/decisions.md, "Signed in with no link") does not sign
 * out: the person this browser remembers stays signed in, `unconfirmed`, until a check answers,
 * asked again when the link is back and every `RECHECK_MS`. Only the server's refusal signs out.
 */
export const authMachine = setup({
  types: {} as {
    context: AuthContext
    events: AuthEvent
    input: {
      readonly storedToken: string | null
      /** The stored token's session, when start-up has already checked it: no second check. */
      readonly checkedUser?: AdminUser | undefined
      /** Who the stored token was last confirmed for, as this browser kept it. */
      readonly rememberedUser?: AdminUser | undefined
    }
  },
  actors: {
    checkSession: fromPromise<AdminUser, { token: string }>(() => Promise.reject(new Error("checkSession not provided"))),
    requestOtp: fromPromise<OtpAnswer, { email: string; role: Role }>(() => Promise.reject(new Error("requestOtp not provided"))),
    verifyOtp: fromPromise<VerifyAnswer, { email: string; otp: string; attempt: string | null }>(() => Promise.reject(new Error("verifyOtp not provided"))),
    stepWithPasskey: fromPromise<{ token: string; user: AdminUser }, { step: string }>(() => Promise.reject(new Error("stepWithPasskey not provided"))),
    stepWithRecoveryCode: fromPromise<{ token: string; user: AdminUser }, { step: string; code: string }>(() =>
      Promise.reject(new Error("stepWithRecoveryCode not provided"))
    ),
    addPasskey: fromPromise<unknown, { name: string }>(() => Promise.reject(new Error("addPasskey not provided"))),
    endSession: fromPromise<unknown, { token: string }>(() => Promise.resolve()),
    passkeySignIn: fromPromise<{ token: string; user: AdminUser }>(() => Promise.reject(new Error("passkeySignIn not provided")))
  },
  actions: {
    /** Keeps the token and who it is for, as confirmed by the server. */
    storeSession: () => undefined,
    forgetSession: () => undefined,
    /** Signed out, then the event again, for the e-mail step to start the sign-in it asks for. */
    signInAfterSignOut: enqueueActions(({ enqueue, event }) => {
      enqueue.assign(signedOut)
      enqueue.raise(event)
    })
  },
  guards: {
    isChecked: ({ context }) => context.token !== null && context.user !== null,
    hasStoredToken: ({ context }) => context.token !== null,
    remembersPerson: ({ context }) => context.token !== null && context.remembered !== null,
    codeAsked: (_, params: { answer: OtpAnswer }) => params.answer.success,
    secondStepAsked: (_, params: { answer: VerifyAnswer }) => "step" in params.answer,
    passkeyDue: (_, params: { answer: VerifyAnswer }) => "token" in params.answer && params.answer.passkeyDueBy !== undefined,
    /**
     * A check the server could not answer, in `confirming`: only the person this browser
     * remembers gets there (from `starting`, `remembersPerson`, or from `unconfirmed`).
     */
    canWaitForLink: (_, params: { error: unknown }) => unreachable(params.error)
  }
}).createMachine({
  id: "auth",
  context: ({ input }) => ({
    ...signedOut,
    token: input.storedToken,
    user: input.checkedUser ?? null,
    remembered: input.rememberedUser ?? null,
    role: "super_admin"
  }),
  initial: "starting",
  states: {
    starting: {
      always: [
        { guard: "isChecked", target: "authenticated" },
        // The person this browser remembers: their screens open at once (from the browser's store), the check answers behind them.
        { guard: "remembersPerson", target: "authenticated.confirming", actions: assign({ user: ({ context }) => context.remembered }) },
        { guard: "hasStoredToken", target: "checking" },
        { target: "unauthenticated" }
      ]
    },
    checking: {
      invoke: {
        id: "checkSession",
        src: "checkSession",
        input: ({ context }) => ({ token: context.token ?? "" }),
        onDone: { target: "authenticated", actions: assign({ user: ({ event }) => event.output }) },
        // Nobody remembered: nobody to stay signed in as while the server can't be reached.
        onError: { target: "unauthenticated", actions: [assign(signedOut), "forgetSession"] }
      }
    },
    unauthenticated: {
      on: {
        SEND_OTP: {
          target: "sendingOtp",
          actions: assign({ email: ({ event }) => event.email, role: ({ event }) => event.role, error: null, resendAfterSeconds: null, attempt: null })
        },
        SIGN_IN_WITH_PASSKEY: { target: "signingInWithPasskey", actions: assign({ error: null }) }
      }
    },
    signingInWithPasskey: {
      invoke: {
        id: "passkeySignIn",
        src: "passkeySignIn",
        onDone: {
          target: "authenticated",
          actions: assign({ token: ({ event }) => event.output.token, user: ({ event }) => event.output.user, error: null })
        },
        onError: {
          target: "unauthenticated",
          actions: assign({ error: ({ event }) => messageFor(event.error, authErrors.passkeyRefused, authErrors.passkeyNoAnswer) })
        }
      }
    },
    sendingOtp: {
      invoke: {
        id: "requestOtp",
        src: "requestOtp",
        input: ({ context }) => ({ email: context.email, role: context.role }),
        onDone: [
          {
            guard: { type: "codeAsked", params: ({ event }) => ({ answer: event.output }) },
            target: "otpSent",
            actions: assign({
              resendAfterSeconds: ({ event }) => event.output.resendAfterSeconds ?? null,
              attempt: ({ event }) => event.output.attempt ?? null
            })
          },
          // docs/product-spec.md §8, "OTP request returned false".
          { target: "unauthenticated", actions: assign({ error: authErrors.sendRefused }) }
        ],
        onError: {
          target: "unauthenticated",
          actions: assign({ error: ({ event }) => messageFor(event.error, authErrors.sendRefused, authErrors.sendThrew) })
        }
      }
    },
    otpSent: {
      on: {
        VERIFY: { target: "verifying", actions: assign({ error: null }) },
        // "Send a new code", offered on the code step once the minute between codes is over.
        RESEND: { target: "resendingOtp", actions: assign({ error: null }) },
        USE_DIFFERENT_EMAIL: { target: "unauthenticated", actions: assign({ email: "", error: null, resendAfterSeconds: null, attempt: null }) }
      }
    },
    // A new code for the same e-mail and role: whatever the answer, the code step stays, saying it.
    resendingOtp: {
      invoke: {
        id: "requestOtp",
        src: "requestOtp",
        input: ({ context }) => ({ email: context.email, role: context.role }),
        onDone: [
          {
            guard: { type: "codeAsked", params: ({ event }) => ({ answer: event.output }) },
            target: "otpSent",
            actions: assign({
              resendAfterSeconds: ({ event }) => event.output.resendAfterSeconds ?? null,
              attempt: ({ event }) => event.output.attempt ?? null
            })
          },
          { target: "otpSent", actions: assign({ error: authErrors.sendRefused }) }
        ],
        onError: {
          target: "otpSent",
          actions: assign({ error: ({ event }) => messageFor(event.error, authErrors.sendRefused, authErrors.sendThrew) })
        }
      }
    },
    verifying: {
      invoke: {
        id: "verifyOtp",
        src: "verifyOtp",
        // Entered by VERIFY alone: the code is the one typed.
        input: ({ context, event }) => {
          assertEvent(event, "VERIFY")
          return { email: context.email, otp: event.otp, attempt: context.attempt }
        },
        onDone: [
          // The role requires a passkey: the code was the first step (docs/security.md, "Passkeys").
          {
            guard: { type: "secondStepAsked", params: ({ event }) => ({ answer: event.output }) },
            target: "secondStep",
            actions: assign({
              step: ({ event }) => ("step" in event.output ? event.output.step : null),
              recoveryCodes: ({ event }) => "step" in event.output && event.output.recoveryCodes,
              error: null
            })
          },
          {
            guard: { type: "passkeyDue", params: ({ event }) => ({ answer: event.output }) },
            target: "passkeyRequired",
            actions: assign(({ event }) =>
              "token" in event.output
                ? { token: event.output.token, user: event.output.user, passkeyDueBy: event.output.passkeyDueBy ?? null, error: null }
                : {}
            )
          },
          {
            target: "authenticated",
            actions: assign(({ event }) => ("token" in event.output ? { token: event.output.token, user: event.output.user, error: null } : {}))
          }
        ],
        onError: {
          target: "otpSent",
          actions: assign({ error: ({ event }) => messageFor(event.error, authErrors.verifyRefused, authErrors.verifyThrew) })
        }
      }
    },
    // The second step (ours: docs/console.md, "Passkeys"): one of the account's passkeys, or a recovery code.
    secondStep: {
      initial: "choosing",
      on: {
        USE_DIFFERENT_EMAIL: {
          target: "unauthenticated",
          actions: assign({ email: "", error: null, resendAfterSeconds: null, attempt: null, step: null, recoveryCodes: false })
        }
      },
      states: {
        choosing: {
          on: {
            USE_PASSKEY: { target: "asserting", actions: assign({ error: null }) },
            USE_RECOVERY_CODE: { target: "recovering", actions: assign({ error: null }) }
          }
        },
        asserting: {
          invoke: {
            id: "stepWithPasskey",
            src: "stepWithPasskey",
            input: ({ context }) => ({ step: context.step ?? "" }),
            onDone: {
              target: "#auth.authenticated",
              actions: assign({ token: ({ event }) => event.output.token, user: ({ event }) => event.output.user, step: null, error: null })
            },
            onError: {
              target: "choosing",
              actions: assign({ error: ({ event }) => messageFor(event.error, authErrors.passkeyRefused, authErrors.passkeyNoAnswer) })
            }
          }
        },
        recovering: {
          invoke: {
            id: "stepWithRecoveryCode",
            src: "stepWithRecoveryCode",
            // Entered by USE_RECOVERY_CODE alone: the code is the one typed.
            input: ({ context, event }) => {
              assertEvent(event, "USE_RECOVERY_CODE")
              return { step: context.step ?? "", code: event.code }
            },
            onDone: {
              target: "#auth.authenticated",
              actions: assign({ token: ({ event }) => event.output.token, user: ({ event }) => event.output.user, step: null, error: null })
            },
            onError: { target: "choosing", actions: assign({ error: ({ event }) => serverMessageOr(event.error, authErrors.stepNoAnswer) }) }
          }
        }
      }
    },
    // Signed in with the code alone, within the grace: asked to add the passkey the role requires first.
    passkeyRequired: {
      // The session is real: the browser keeps it (a passkey is added with it; a reload opens the console).
      entry: "storeSession",
      initial: "offered",
      on: {
        SKIP: { target: "authenticated", actions: assign({ passkeyDueBy: null, error: null }) },
        LOGOUT: { target: "signingOut", actions: "forgetSession" }
      },
      states: {
        offered: { on: { ADD_PASSKEY: { target: "adding", actions: assign({ error: null }) } } },
        adding: {
          invoke: {
            id: "addPasskey",
            src: "addPasskey",
            input: ({ event }) => {
              assertEvent(event, "ADD_PASSKEY")
              return { name: event.name }
            },
            onDone: { target: "#auth.authenticated", actions: assign({ passkeyDueBy: null, error: null }) },
            onError: { target: "offered", actions: assign({ error: ({ event }) => serverMessageOr(event.error, authErrors.addRefused) }) }
          }
        }
      }
    },
    authenticated: {
      initial: "confirmed",
      on: {
        // The stored token goes at once; the server is told after, and its answer changes nothing.
        LOGOUT: { target: "signingOut", actions: "forgetSession" },
        SESSION_EXPIRED: { target: "unauthenticated", actions: [assign(signedOut), "forgetSession"] }
      },
      states: {
        // However the server confirmed the session (a code, a check), the browser keeps it.
        confirmed: { entry: "storeSession" },
        unconfirmed: {
          on: { LINK_BACK: "confirming" },
          after: { [RECHECK_MS]: "confirming" }
        },
        confirming: {
          invoke: {
            id: "checkSession",
            src: "checkSession",
            input: ({ context }) => ({ token: context.token ?? "" }),
            onDone: { target: "confirmed", actions: assign({ user: ({ event }) => event.output }) },
            onError: [
              { guard: { type: "canWaitForLink", params: ({ event }) => ({ error: event.error }) }, target: "unconfirmed" },
              { target: "#auth.unauthenticated", actions: [assign(signedOut), "forgetSession"] }
            ]
          }
        }
      }
    },
    signingOut: {
      invoke: {
        id: "endSession",
        src: "endSession",
        input: ({ context }) => ({ token: context.token ?? "" }),
        onDone: { target: "unauthenticated", actions: assign(signedOut) },
        onError: { target: "unauthenticated", actions: assign(signedOut) }
      },
      // The sign-in form shows at once (src/app/App.tsx) and the sign-out is kept until the server
      // has heard it (src/api/revoke.ts): a sign-in started before it answered is the e-mail step's.
      on: {
        SEND_OTP: { target: "unauthenticated", actions: "signInAfterSignOut" },
        SIGN_IN_WITH_PASSKEY: { target: "unauthenticated", actions: "signInAfterSignOut" }
      }
    }
  }
})

export type AuthMachine = typeof authMachine
