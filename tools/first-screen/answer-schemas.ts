import { join } from "node:path"
import { pathToFileURL } from "node:url"
import type { Plugin } from "vite"
import { type JsonSchema, unknownKeywords } from "../../contract/json-check.ts"

export const ANSWER_SCHEMAS_MODULE = "virtual:answer-schemas"
const RESOLVED = `\0${ANSWER_SCHEMAS_MODULE}`
/** The endpoints' methods, apart: only a command needs them (src/api/endpoints.ts), never a first screen. */
export const ENDPOINT_METHODS_MODULE = "virtual:endpoint-methods"

/**
 * The JSON Schema of each answer start-up prefetches (src/api/first-answer-schemas.ts), from the
 * contract's effect schemas, loaded as Node loads TypeScript. A keyword the console's checker
 * does not judge stops the build, since passing it over would let through what the contract
 * refuses.
 */
export const firstAnswerJsonSchemas = async (root: string): Promise<Readonly<Record<string, JsonSchema>>> => {
  const { Schema } = await import("effect")
  const url = pathToFileURL(join(root, "src/api/first-answer-schemas.ts")).href
  const { firstAnswerSchemas } = (await import(url)) as {
    readonly firstAnswerSchemas: Readonly<Record<string, Parameters<typeof Schema.toJsonSchemaDocument>[0]>>
  }
  return Object.fromEntries(
    Object.entries(firstAnswerSchemas).map(([name, schema]) => {
      const document = Schema.toJsonSchemaDocument(schema)
      const definitions = document.definitions as Readonly<Record<string, unknown>>
      const json = { ...document.schema, ...(Object.keys(definitions).length === 0 ? {} : { $defs: definitions }) }
      const unknown = unknownKeywords(json)
      if (unknown.length > 0) {
        throw new Error(`answer-checks: the schema of ${name} uses ${[...new Set(unknown)].join(", ")}, which contract/json-check.ts does not check`)
      }
      return [name, json as JsonSchema]
    })
  )
}

/**
 * The method and path of each endpoint named in src/api/first-answer-schemas.ts (`endpointsByName`),
 * from the contract's HttpApi; an endpoint the contract no longer has stops the build.
 */
export const firstEndpoints = async (root: string): Promise<Readonly<Record<string, { readonly method: string; readonly path: string }>>> => {
  const load = (path: string) => import(pathToFileURL(join(root, path)).href)
  const { endpointsByName } = (await load("src/api/first-answer-schemas.ts")) as { readonly endpointsByName: Readonly<Record<string, string>> }
  const { AdminApi } = (await load("contract/api.ts")) as {
    readonly AdminApi: {
      readonly groups: Readonly<Record<string, { readonly endpoints: Readonly<Record<string, { readonly method?: string; readonly path: string }>> }>>
    }
  }
  return Object.fromEntries(
    Object.entries(endpointsByName).map(([name, endpoint]) => {
      const [group = "", key = ""] = endpoint.split(".")
      const found = AdminApi.groups[group]?.endpoints[key]
      if (found === undefined) throw new Error(`answer-checks: the contract has no endpoint ${endpoint} (${name}, src/api/first-answer-schemas.ts)`)
      return [name, { method: found.method ?? "GET", path: found.path }]
    })
  )
}

/** The path of each endpoint named in `endpointsByName`, from the contract (`firstEndpoints`). */
export const firstEndpointPaths = async (root: string): Promise<Readonly<Record<string, string>>> =>
  Object.fromEntries(Object.entries(await firstEndpoints(root)).map(([name, endpoint]) => [name, endpoint.path]))

/**
 * `virtual:answer-schemas`: the contract's schemas of the answers start-up prefetches, as JSON
 * Schema data compiled at build time, so the first screen checks its first answers with
 * contract/json-check.ts instead of loading effect (docs/architecture.md, "First screen").
 * `virtual:answer-schemas/NAME` is one schema alone (its default export): it goes into the chunk
 * of the screen that reads it, not into start-up's with the paths. `virtual:endpoint-methods` is
 * the endpoints' methods, in the chunk of the code that makes commands.
 */
export const answerSchemas = (root: string): Plugin => {
  let compiled: Promise<readonly [Readonly<Record<string, JsonSchema>>, Awaited<ReturnType<typeof firstEndpoints>>]> | undefined
  const both = () => (compiled ??= Promise.all([firstAnswerJsonSchemas(root), firstEndpoints(root)]))
  const ONE = `${ANSWER_SCHEMAS_MODULE}/`
  return {
    name: "answer-schemas",
    buildStart: () => void (compiled = undefined),
    resolveId: (id) => (id === ANSWER_SCHEMAS_MODULE || id === ENDPOINT_METHODS_MODULE || id.startsWith(ONE) ? `\0${id}` : undefined),
    load: async (id) => {
      const each = async (field: "method" | "path") =>
        JSON.stringify(Object.fromEntries(Object.entries((await both())[1]).map(([name, endpoint]) => [name, endpoint[field]])))
      if (id === `\0${ENDPOINT_METHODS_MODULE}`) return `export const methods = ${await each("method")};`
      if (id.startsWith(`\0${ONE}`)) {
        const name = id.slice(ONE.length + 1)
        const schema = (await both())[0][name]
        if (schema === undefined) throw new Error(`answer-checks: src/api/first-answer-schemas.ts names no schema ${name}`)
        return `export default ${JSON.stringify(schema)};`
      }
      if (id !== RESOLVED) return undefined
      const [schemas] = await both()
      const url = pathToFileURL(join(root, "src/api/first-answer-schemas.ts")).href
      const { aloneSchemaNames } = (await import(url)) as { readonly aloneSchemaNames: ReadonlyArray<string> }
      return [
        ...Object.entries(schemas)
          .filter(([name]) => !aloneSchemaNames.includes(name))
          .map(([name, schema]) => `export const ${name} = ${JSON.stringify(schema)};`),
        `export const paths = ${await each("path")};`
      ].join("\n")
    }
  }
}
