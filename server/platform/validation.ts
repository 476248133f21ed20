import { Cause, Effect } from "effect"
import { HttpServerResponse } from "effect/http"
import { HttpApiMiddleware } from "effect/http-api"
import { RequestValidation } from "../../contract/api.ts"
import { BadRequest } from "../../contract/common.ts"
import { describeIssues, fieldIssues } from "./issues.ts"

const slots = { Params: "path", Query: "query", Headers: "header", Payload: "body" } as const

/**
 * A request that fails its schema answers 400 `{ success: false, error, issues }`, the error
 * naming each field ("email: must be a valid e-mail address"), the first ten of them and how many
 * there were in all (`issueCount`), so a body of a million bad values gets a small answer. A response that fails its own
 * schema is our bug: it is reported and answers 500.
 */
export const RequestValidationLive = HttpApiMiddleware.layerSchemaErrorTransform(RequestValidation, (error) => {
  if (error.kind === "Body" || error.kind === "ResponseHeaders") {
    return Effect.logError("Response failed its schema", Cause.fail(error)).pipe(
      Effect.as(HttpServerResponse.jsonUnsafe({ success: false, error: "Internal server error" }, { status: 500 }))
    )
  }
  const { shown, total } = fieldIssues(error.cause)
  const where = slots[error.kind]
  return Effect.fail(
    new BadRequest({
      error: `Invalid request ${where}: ${describeIssues(shown, total)}`,
      issues: shown,
      ...(total > shown.length ? { issueCount: total } : {})
    })
  )
})
