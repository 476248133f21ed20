import type { Schema } from "effect"
import { useId, useState } from "react"
import type { FieldIssue } from "../../../contract/common.ts"
import { checkLazily, issueAt } from "../../lib/form/check-lazily.ts"
import { useFirstInvalidFocus } from "../../lib/form/use-first-invalid-focus.ts"
import { fieldView } from "../../lib/form/words.ts"

/** The contract's sign-in request: the server decodes both steps with it. */
export const authRequest = () => import("../../../contract/auth.ts").then((module) => module.AuthRequest)

/**
 * A sign-in step on the one form pattern (docs/architecture.md, "Forms"): the payload is checked
 * with the contract's schema before the auth machine sends it; problems show under their fields
 * and the cursor goes to the first. The machine holds the steps, so this checks and hands over.
 */
export const useStep = (schema: () => Promise<Schema.Decoder<unknown>> = authRequest) => {
  const id = useId()
  const [issues, setIssues] = useState<ReadonlyArray<FieldIssue>>([])
  const { formRef, focusFirstInvalid } = useFirstInvalidFocus()
  const submitChecked = async (payload: Record<string, unknown>, extra: ReadonlyArray<FieldIssue>, send: () => void) => {
    const checked = await checkLazily(schema, payload)
    const found = [...extra, ...(checked.ok ? [] : checked.issues)]
    setIssues(found)
    if (found.length > 0) focusFirstInvalid()
    else send()
  }
  const view = (name: string, label: string, hint?: string) =>
    fieldView(`${id}-${name}`, label, issueAt(issues, name), { required: true, ...(hint === undefined ? {} : { hint }) })
  return { formRef, submitChecked, view, clear: (name: string) => setIssues((known) => known.filter((issue) => issue.path !== name)) }
}
