import { createActorContext } from "@xstate/react"
import type { ReactNode } from "react"
import type { AdminUser } from "../../contract/auth.ts"
import { authMachine } from "../../machines/auth.ts"
import { TOKEN_KEY } from "./token.ts"

export { TOKEN_KEY }

/**
 * The signed-in state every feature reads (who is signed in, the token). The machine's calls and
 * token storage are provided by the app (src/app/auth.ts), which composes the API with it: this
 * shared layer never imports the API (docs/architecture.md, "Layers").
 */
export const AuthContext = createActorContext(authMachine)

/** What the console starts from: the stored token, and its session when start-up already checked it. */
export interface AuthInput {
  readonly storedToken: string | null
  readonly checkedUser?: AdminUser | undefined
}

/** The auth machine with the app's calls (`logic`), started from `input`. */
export const AuthProvider = ({ logic, input, children }: { readonly logic: typeof authMachine; readonly input: AuthInput; readonly children: ReactNode }) => (
  <AuthContext.Provider logic={logic} options={{ input }}>
    {children}
  </AuthContext.Provider>
)
