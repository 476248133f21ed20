import { call } from "./http.ts"

/**
 * The operations of the OpenAPI document a server publishes, each with a path a request can be
 * sent to, so a test can walk every endpoint of the contract without listing them.
 */

interface ParameterSchema {
  readonly enum?: ReadonlyArray<unknown>
  readonly pattern?: string
}

export interface ApiOperation {
  readonly method: string
  /** As the document writes it: `/api/blog/posts/{slug}`. */
  readonly path: string
  /** As the server's routes and its request log write it: `/api/blog/posts/:slug`. */
  readonly pattern: string
  /** Behind the bearer check (the document names a security scheme). */
  readonly signedIn: boolean
  /** The statuses the document says it may answer. */
  readonly statuses: ReadonlySet<number>
  /** `path` with each parameter filled with a value its schema allows (`/api/blog/posts/a-slug`). */
  readonly example: string
}

interface RawOperation {
  readonly security?: ReadonlyArray<Record<string, unknown>>
  readonly responses?: Record<string, unknown>
  readonly parameters?: ReadonlyArray<{ readonly name: string; readonly in: string; readonly schema?: ParameterSchema }>
}

/** A value of a path parameter that no static segment of the API spells, so it can only fill the parameter. */
const sampleOf = (schema: ParameterSchema | undefined): string => {
  const first = schema?.enum?.[0]
  if (typeof first === "string") return first
  if (schema?.pattern?.includes("[0-9a-fA-F]{8}") === true) return "0b5f0c1e-6a52-4c3e-9a1d-2f6d3c1b7e90"
  if (schema?.pattern === "^\\d+$") return "1"
  return "a-sample"
}

export const apiOperations = async (url: string): Promise<ReadonlyArray<ApiOperation>> => {
  const document = (await call(url, "GET", "/api/openapi.json")).body as { paths: Record<string, Record<string, RawOperation>> }
  return Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods)
      .filter(([method]) => ["get", "post", "put", "patch", "delete"].includes(method))
      .map(([method, operation]) => {
        const values = new Map((operation.parameters ?? []).filter((p) => p.in === "path").map((p) => [p.name, sampleOf(p.schema)]))
        return {
          method: method.toUpperCase(),
          path,
          pattern: path.replace(/\{(\w+)\}/g, ":$1"),
          signedIn: (operation.security ?? []).some((scheme) => Object.keys(scheme).length > 0),
          statuses: new Set(Object.keys(operation.responses ?? {}).map(Number)),
          example: path.replace(/\{(\w+)\}/g, (_, name: string) => values.get(name) ?? "a-sample")
        }
      })
  )
}
