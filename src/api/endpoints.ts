import { paths } from "virtual:answer-schemas"
import { methods } from "virtual:endpoint-methods"
import { withParams } from "./list-paths.ts"

/** An endpoint the console calls without effect's client (src/api/first-answer-schemas.ts, `endpointsByName`). */
export type EndpointName = keyof typeof paths

/** The methods of a write: what a command may name. */
export type WriteMethod = Exclude<(typeof methods)[EndpointName], "GET">

/**
 * The call a command names (docs/decisions.md, "The browser's store"): the contract's method and
 * path of `name`, its `:parameters` filled from `params` (each encoded) and `query` after it. A
 * read, or a parameter the path has and `params` lacks, is a defect, thrown at once.
 */
export const callTo = (
  name: EndpointName,
  params: Readonly<Record<string, string>>,
  query: Readonly<Record<string, string | undefined>> = {}
): { readonly method: WriteMethod; readonly path: string } => {
  const method = methods[name]
  if (method === "GET") throw new Error(`${name} is a read, not a command's call`)
  const path = paths[name].replace(/:(\w+)/gu, (_, key: string) => {
    const value = params[key]
    if (value === undefined) throw new Error(`${name}: no value for :${key}`)
    return encodeURIComponent(value)
  })
  return { method, path: withParams(path, query) }
}
