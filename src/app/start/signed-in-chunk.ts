import type { ComponentType } from "react"

let loaded: ComponentType | undefined
let loading: Promise<ComponentType> | undefined

/** Loads the signed-in screens' chunk (once); start-up calls it at once when a token is stored. */
export const preloadSignedInScreens = (): Promise<ComponentType> => {
  loading ??= import("../AuthenticatedApp.tsx").then((module) => (loaded = module.default))
  return loading
}

/**
 * The screens if their chunk has arrived, to be rendered without suspending: React holds a
 * suspended boundary's content back for up to 300 ms after its fallback shows, so a chunk that
 * is already there must not suspend.
 */
export const signedInScreensIfLoaded = (): ComponentType | undefined => loaded
