import { fileURLToPath } from "node:url"
import type { LoadHook, ResolveHook } from "node:module"
import { answerSchemas } from "../../tools/first-screen/answer-schemas.ts"

/**
 * The build's virtual modules (`virtual:answer-schemas`, `virtual:endpoint-methods`) for the
 * bench, which runs the console's modules in Node without Vite (its first-visit routes come from
 * src/app/navigation.ts): each is what the build's plugin makes of the contract. Registered by
 * ./register.ts before anything is imported (`npm run bench`).
 */
const plugin = answerSchemas(fileURLToPath(new URL("../..", import.meta.url)))
const SCHEME = "bench-virtual:"

export const resolve: ResolveHook = (specifier, context, next) =>
  specifier.startsWith("virtual:") ? { url: `${SCHEME}${specifier}`, shortCircuit: true } : next(specifier, context)

export const load: LoadHook = async (url, context, next) => {
  if (!url.startsWith(SCHEME)) return next(url, context)
  const made = await (plugin.load as (id: string) => Promise<string | undefined>)(`\0${url.slice(SCHEME.length)}`)
  if (made === undefined) throw new Error(`No virtual module ${url.slice(SCHEME.length)}`)
  return { format: "module", source: made, shortCircuit: true }
}
