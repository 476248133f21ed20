import type { ComponentType } from "react"

let loaded: ComponentType | undefined
let loading: Promise<ComponentType> | undefined

/**
 * Loads the signed-in screens' chunk (once; again after a failed try): start-up calls it at once
 * when a token is stored, the sign-in as soon as a person starts to sign in.
 */
export const preloadSignedInScreens = (): Promise<ComponentType> => {
  loading ??= import("../AuthenticatedApp.tsx").then(
    (module) => (loaded = module.default),
    (error: unknown) => {
      loading = undefined
      throw error
    }
  )
  return loading
}

/**
 * The screens' chunk, asked for as a sign-in starts (a code asked for, a passkey's ceremony): it
 * arrives while the person types the code or touches the authenticator, so the first signed-in
 * screen does not suspend on it (React then holds the screen back for up to 300 ms). A failure
 * here is tried again when the screens are rendered.
 */
export const signingInSoon = () => void preloadSignedInScreens().catch(() => undefined)

/**
 * The screens if their chunk has arrived, to be rendered without suspending: React holds a
 * suspended boundary's content back for up to 300 ms after its fallback shows, so a chunk that
 * is already there must not suspend.
 */
export const signedInScreensIfLoaded = (): ComponentType | undefined => loaded
