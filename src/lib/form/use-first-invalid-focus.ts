import { type RefObject, useCallback, useEffect, useRef, useState } from "react"

/**
 * The form pattern's focus rule (docs/architecture.md, "Forms"): after a refused submit the
 * cursor goes to the first field marked invalid, in the order the fields are on screen, scrolled
 * into view; when no field is (a refusal only the banner can say), the banner is brought into
 * view. The request is carried out after the render that shows the messages, so the field is
 * already marked when it is looked for.
 */
export const useFirstInvalidFocus = <Root extends HTMLElement = HTMLFormElement>(): {
  readonly formRef: RefObject<Root | null>
  readonly focusFirstInvalid: () => void
} => {
  const formRef = useRef<Root | null>(null)
  const [request, setRequest] = useState(0)
  useEffect(() => {
    if (request === 0) return
    const root = formRef.current
    const invalid = root?.querySelector<HTMLElement>("[aria-invalid='true']")
    if (invalid !== null && invalid !== undefined) {
      invalid.focus()
      invalid.scrollIntoView({ block: "center" })
    } else root?.querySelector<HTMLElement>("[data-form-banner]")?.scrollIntoView({ block: "nearest" })
  }, [request])
  const focusFirstInvalid = useCallback(() => setRequest((n) => n + 1), [])
  return { formRef, focusFirstInvalid }
}
