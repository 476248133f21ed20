import { createActorContext } from "@xstate/react"
import { type ReactNode, useCallback } from "react"
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

/** What the console starts from: the stored token, its session when start-up already checked it, and who the browser remembers it for. */
export interface AuthInput {
  readonly storedToken: string | null
  readonly checkedUser?: AdminUser | undefined
  readonly rememberedUser?: AdminUser | undefined
}

/** The auth machine with the app's calls (`logic`), started from `input`. */
export const AuthProvider = ({ logic, input, children }: { readonly logic: typeof authMachine; readonly input: AuthInput; readonly children: ReactNode }) => (
  <AuthContext.Provider logic={logic} options={{ input }}>
    {children}
  </AuthContext.Provider>
)

/**
 * Why the signed-in role may not do `what` ("edit listings"), or undefined when it may: the one
 * line a refused key says (`Command.refused`). Moderators change statuses and notes; creating,
 * editing and deleting content is for admins (docs/security.md, "Roles").
 */
export const useEditorRefusal = (): ((what: string) => string | undefined) => {
  const moderator = AuthContext.useSelector((snapshot) => snapshot.context.user?.role === "moderator")
  return useCallback((what: string) => (moderator ? `Moderators can't ${what}: an admin can.` : undefined), [moderator])
}
