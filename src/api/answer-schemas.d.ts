/** Built by tools/vite-answer-checks.ts from src/api/first-answer-schemas.ts: one JSON Schema per name. */
declare module "virtual:answer-schemas" {
  import type { JsonSchema } from "../../contract/json-check.ts"
  export const sessionCheck: JsonSchema
  export const generatedPage: JsonSchema
  export const cexPage: JsonSchema
  export const coreTeamPage: JsonSchema
  export const postPage: JsonSchema
}
