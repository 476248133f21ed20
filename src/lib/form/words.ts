/**
 * A field's problem in the words of its label: the contract words its checks as what follows a
 * field's name ("must be a year such as 2021", "is required"), so the label goes in front:
 * "Founded (year) must be a year such as 2021". A message that is a sentence of its own (the
 * spec's "Title is required") is said as it is.
 */
export const inLabelWords = (label: string, message: string): string => (/^[a-z]/u.test(message) ? `${label} ${message}` : message)

/** A field as the form pattern shows it: its control's id and ARIA, and its message in the label's words. */
export interface FieldView {
  readonly id: string
  readonly label: string
  readonly required: boolean
  readonly hint: string | undefined
  readonly error: string | undefined
  /** Spread on the control (or the control's text input). */
  readonly control: {
    readonly id: string
    readonly "aria-invalid": true | undefined
    readonly "aria-describedby": string | undefined
    readonly "aria-required": true | undefined
  }
}

/**
 * The view of one field: `message` is its problem as the contract (or the spec) says it, or
 * undefined. Forms whose values a machine holds (the blog editor) build their fields with this
 * too, so every form reads and announces its problems alike.
 */
export const fieldView = (
  id: string,
  label: string,
  message: string | undefined,
  options?: { readonly required?: boolean; readonly hint?: string }
): FieldView => {
  const error = message === undefined ? undefined : inLabelWords(label, message)
  const described = [error === undefined ? undefined : `${id}-error`, options?.hint === undefined ? undefined : `${id}-hint`].filter(
    (part) => part !== undefined
  )
  return {
    id,
    label,
    required: options?.required === true,
    hint: options?.hint,
    error,
    control: {
      id,
      "aria-invalid": error === undefined ? undefined : true,
      "aria-describedby": described.length === 0 ? undefined : described.join(" "),
      "aria-required": options?.required === true ? true : undefined
    }
  }
}
