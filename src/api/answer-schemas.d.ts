/** Built by tools/first-screen/answer-schemas.ts from src/api/first-answer-schemas.ts: one JSON Schema per name. */
declare module "virtual:answer-schemas" {
  type JsonSchema = import("../../contract/json-check.ts").JsonSchema
  export const sessionCheck: JsonSchema
  export const generatedPage: JsonSchema
  export const cexPage: JsonSchema
  export const coreTeamPage: JsonSchema
  /** The contract's path of each endpoint in `endpointsByName` (src/api/first-answer-schemas.ts). */
  export const paths: { readonly [Name in keyof typeof import("./first-answer-schemas.ts").endpointsByName]: string }
}

/** The contract's method of each endpoint in `endpointsByName`: apart, in the chunk of the code that makes commands. */
declare module "virtual:endpoint-methods" {
  export const methods: { readonly [Name in keyof typeof import("./first-answer-schemas.ts").endpointsByName]: "GET" | "POST" | "PUT" | "PATCH" | "DELETE" }
}

/** One schema of src/api/first-answer-schemas.ts alone, in the chunk of the screen that reads it. */
declare module "virtual:answer-schemas/*" {
  const schema: import("../../contract/json-check.ts").JsonSchema
  export default schema
}
