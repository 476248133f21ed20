import type { Schema } from "effect"
import { createContext, type FormEvent, type RefObject, useCallback, useContext, useEffect, useId, useMemo, useRef, useState } from "react"
import { type DefaultValues, type FieldErrors, type FieldValues, get, type Resolver, set, useForm, type UseFormReturn } from "react-hook-form"
import type { FieldIssue } from "../../../contract/common.ts"
import { type CallFailure, failureOf, issuesOf, saidWith } from "../../../contract/call-failure.ts"
import { useFirstInvalidFocus } from "./use-first-invalid-focus.ts"
import { type CallAs, currentStore } from "../store/handle.ts"
import { type FieldView, fieldView, inLabelWords } from "./words.ts"

/**
 * The one form pattern (docs/architecture.md, "Forms"): React Hook Form holds what is typed; the
 * contract's own schema, through its Standard Schema face, says what is wrong with it before
 * anything is sent; a 400's `issues` land on the same fields afterwards. Each message shows under
 * its field in the words of the field's label, the field is marked invalid for assistive
 * technology, the focus goes to the first invalid field, and nothing typed is lost.
 */
export interface ContractFormOptions<Values extends FieldValues, Payload> {
  /** What the form opens with. */
  readonly values: Values
  /** The contract's schema of what is sent; loaded (with effect) on the first check. */
  readonly schema: () => Promise<Schema.Decoder<Payload>>
  /**
   * The contract's rules across fields (an end at or after a start), checked on their own too:
   * a struct's own check runs only once every field is right, and a person should hear of it
   * with the rest. Their problems join the schema's, one per field.
   */
  readonly rules?: () => Promise<ReadonlyArray<Schema.Decoder<unknown>>>
  /** What the values send: texts trimmed, numbers as numbers, dates as instants. */
  readonly toPayload: (values: Values) => unknown
  /** The field that answers for a problem at `path` of what is sent; by default the field named so. */
  readonly fieldOf?: (path: string) => string
  /**
   * Sends the checked value; a refusal rejects with the API layer's failure (src/api/failure.ts).
   * `intent` is what the button pressed asked for (`submitWith`), for forms with several. `as`
   * goes to the call (`callApi`): what the save does to the record in the browser's store.
   */
  readonly send: (payload: Payload, intent: string | undefined, as: CallAs) => Promise<unknown> | void
  /**
   * The record the form changes, as the browser's store names it (a list's `spec.store` kind, its
   * id, its name) and as it opened: the save shows on it at once, its fields as checked
   * (`effectOf`, by default what is sent but its version, a group of fields over the group
   * opened), until the server answers. None for a new record.
   */
  readonly record?: { readonly kind: string; readonly id: string; readonly label: string; readonly opened: object }
  /** The save's fields on the record, when they are not simply what is sent (a password is not shown). */
  readonly effectOf?: (payload: Payload) => Readonly<Record<string, unknown>>
  /**
   * The link is down and the save is kept in the browser's outbox, to go out when it is back: what
   * the form does then (it closes, as after a save). Without it the form waits for the answer.
   */
  readonly kept?: () => void
  /** What the form does once the server took the save (closes, reads its list again); not after `kept`. */
  readonly saved?: () => void
  /** Told of every change as it is typed, for a machine that follows the values (the inquiry's notes). */
  readonly onChange?: (values: Values) => void
  /**
   * The banner for a refusal no field owns: a text put before the reason ("Failed to save
   * listing: …"), or the whole banner from the failure (the sign-in catalogue's exact texts).
   */
  readonly failed: string | ((failure: CallFailure) => string)
}

export interface ContractForm<Values extends FieldValues> {
  readonly form: UseFormReturn<Values>
  /** Spread on the <form>: the pattern's submit, no browser bubbles (the messages are ours). */
  readonly formProps: { readonly ref: RefObject<HTMLFormElement | null>; readonly noValidate: true; readonly onSubmit: (event: FormEvent) => void }
  /** Submits as the form's own Save does (Ctrl+Enter, a palette command). */
  readonly submit: () => void
  /** Submits for one of several buttons: `send` gets `intent` (an inquiry's next status). */
  readonly submitWith: (intent: string) => void
  readonly busy: boolean
  /** A refusal no field owns, in the form's words; null when there is none. */
  readonly banner: string | null
  /**
   * Shows a refusal that came another way (a machine that made the call) under the fields;
   * returns the issues no field owns, for the form's own banner.
   */
  readonly showIssues: (issues: ReadonlyArray<FieldIssue>) => ReadonlyArray<FieldIssue>
  /** A field's view; registers the field as one that shows its own problems. */
  readonly field: (name: string, label: string, options?: { readonly required?: boolean; readonly hint?: string }) => FieldView
}

/** The pattern's context, so a field component finds its form. */
export const ContractFormContext = createContext<ContractForm<FieldValues> | null>(null)

export const useContractFormContext = (): ContractForm<FieldValues> => {
  const form = useContext(ContractFormContext)
  if (form === null) throw new Error("A form field must be inside a form of the one form pattern (src/ui/FormField.tsx)")
  return form
}

/**
 * The field on show that answers for a problem at `path`: the field of that name, else the
 * nearest one above it (a list's field answers for `tags.3`, a group's for its parts).
 */
export const ownerOf = (fields: ReadonlyMap<string, string>, path: string): string | undefined => {
  const parts = path.split(".")
  while (parts.length > 0) {
    const name = parts.join(".")
    if (fields.has(name)) return name
    parts.pop()
  }
  return undefined
}

/** The message RHF holds for the field at `name` of its (nested) errors. */
const messageAt = (errors: FieldErrors, name: string): string | undefined => {
  const found: unknown = get(errors, name)
  return typeof found === "object" && found !== null && "message" in found && typeof found.message === "string" ? found.message : undefined
}

const loadCheck = () => import("./check.ts").then((module) => module.check)

/** A refusal's words when the form's own are made from the failure (sign-in's, never a command). */
const REFUSED = "The server refused the save"

const isGroup = (value: unknown): value is Readonly<Record<string, unknown>> => typeof value === "object" && value !== null && !Array.isArray(value)

/** What is sent, but its version, as fields of the record opened: a group sent (a contact's `inquiry`) over the group it had. */
const over = (opened: Readonly<Record<string, unknown>>, sent: Readonly<Record<string, unknown>>): Readonly<Record<string, unknown>> =>
  Object.fromEntries(
    Object.entries(sent)
      .filter(([name]) => name !== "version")
      .map(([name, value]) => {
        const had = opened[name]
        return [name, isGroup(value) && isGroup(had) ? { ...had, ...value } : value]
      })
  )

/** What a save does in the browser's store (docs/architecture.md, "Forms"). */
const callAs = <Payload>(options: ContractFormOptions<FieldValues, Payload>, payload: Payload): CallAs => {
  const { record, failed, kept, effectOf } = options
  const refused = typeof failed === "string" ? failed : REFUSED
  return {
    kind: record?.kind ?? "",
    recordIds: record === undefined ? [] : [record.id],
    effect:
      record === undefined
        ? {}
        : (effectOf?.(payload) ?? over(record.opened as Readonly<Record<string, unknown>>, payload as Readonly<Record<string, unknown>>)),
    label: record?.label ?? refused,
    failed: refused,
    quiet: true,
    ...(kept === undefined ? {} : { kept })
  }
}

/** A failure as the banner says it. */
const bannerOf = (failed: ContractFormOptions<FieldValues, unknown>["failed"], failure: CallFailure) =>
  typeof failed === "string" ? saidWith(failed, failure) : failed(failure)

/**
 * A refusal a machine's call brought back (`issues` from its context), shown under the form's
 * fields whenever it changes; returns the issues no field owns, for the form's alert.
 */
export const useRefusal = (form: Pick<ContractForm<FieldValues>, "showIssues">, issues: ReadonlyArray<FieldIssue>): ReadonlyArray<FieldIssue> => {
  const { showIssues } = form
  const [stray, setStray] = useState<ReadonlyArray<FieldIssue>>([])
  useEffect(() => setStray(issues.length === 0 ? [] : showIssues(issues)), [issues, showIssues])
  return stray
}

export const useContractForm = <Values extends FieldValues, Payload>(options: ContractFormOptions<Values, Payload>): ContractForm<Values> => {
  const prefix = useId()
  const latest = useRef(options)
  latest.current = options
  /** The fields on show, by name, with their labels: a problem elsewhere goes to the banner. */
  const fields = useRef(new Map<string, string>())
  const { formRef, focusFirstInvalid } = useFirstInvalidFocus()
  const [banner, setBanner] = useState<string | null>(null)
  // The checks' code loads while the person types, so a Save made with the link cut is checked
  // and goes into the outbox (docs/architecture.md, "The browser's store").
  useEffect(() => {
    const ignore = () => undefined
    loadCheck().catch(ignore)
    latest.current.schema().catch(ignore)
    latest.current.rules?.().catch(ignore)
  }, [])

  /** Problems by field (RHF's nested errors), and the ones no field on show owns. */
  const place = useCallback((issues: ReadonlyArray<FieldIssue>, type: string) => {
    const errors: FieldErrors<Values> = {}
    const stray: Array<FieldIssue> = []
    for (const issue of issues) {
      const name = ownerOf(fields.current, latest.current.fieldOf?.(issue.path) ?? issue.path)
      if (name === undefined) stray.push(issue)
      else if (get(errors, name) === undefined) set(errors, name, { type, message: issue.message })
    }
    return { errors, stray }
  }, [])

  const strayText = (stray: ReadonlyArray<FieldIssue>) =>
    stray.map((issue) => (issue.path === "" ? issue.message : inLabelWords(issue.path, issue.message))).join("; ")

  const resolver: Resolver<Values, unknown, Values> = useCallback(
    async (values) => {
      const [schema, run, rules] = await Promise.all([latest.current.schema(), loadCheck(), latest.current.rules?.() ?? []])
      const payload = latest.current.toPayload(values)
      const result = run(schema, payload)
      if (result.ok) return { values: result.value as unknown as Values, errors: {} }
      const said = new Set(result.issues.map((issue) => issue.path))
      const ruled = rules.flatMap((rule) => {
        const checked = run(rule, payload)
        return checked.ok ? [] : checked.issues.filter((issue) => !said.has(issue.path))
      })
      const { errors, stray } = place([...result.issues, ...ruled], "contract")
      // A problem no field on show owns still refuses the form, and says so in the banner.
      if (stray.length > 0) set(errors, "root.contract", { type: "contract", message: strayText(stray) })
      return { values: {}, errors }
    },
    [place]
  )

  const form = useForm<Values, unknown, Values>({
    defaultValues: options.values as DefaultValues<Values>,
    resolver,
    mode: "onSubmit",
    reValidateMode: "onChange",
    // The pattern moves the focus itself, in the order the fields are on screen.
    shouldFocusError: false
  })

  /** Puts a refusal's issues under their fields and asks for the focus; returns the ones no field owns. */
  const showIssues = useCallback(
    (issues: ReadonlyArray<FieldIssue>): ReadonlyArray<FieldIssue> => {
      const { errors, stray } = place(issues, "server")
      for (const name of fields.current.keys()) {
        const owned = messageAt(errors, name)
        if (owned !== undefined) form.setError(name as never, { type: "server", message: owned })
      }
      focusFirstInvalid()
      return stray
    },
    [place, focusFirstInvalid, form]
  )

  const intent = useRef<string | undefined>(undefined)
  const onValid = useCallback(
    async (payload: Values) => {
      setBanner(null)
      const options = latest.current
      // Kept in the outbox, the form has gone: its answer is the console's shell's to say.
      let keptHere = false
      const kept = options.kept
      const checked = payload as unknown as Payload
      const as = callAs(
        {
          ...(options as ContractFormOptions<FieldValues, Payload>),
          ...(kept === undefined
            ? {}
            : {
                kept: () => {
                  keptHere = true
                  kept()
                }
              })
        },
        checked
      )
      try {
        await options.send(checked, intent.current, as)
        if (!keptHere) options.saved?.()
      } catch (error) {
        if (keptHere) return
        const failure = failureOf(error)
        const issues = issuesOf(error)
        const stray = showIssues(issues)
        // Every problem under its field: no banner. Otherwise the banner says what no field can.
        if (issues.length === 0) setBanner(bannerOf(latest.current.failed, failure))
        else if (stray.length > 0) setBanner(bannerOf(latest.current.failed, { ...failure, message: strayText(stray) }))
      }
    },
    [showIssues]
  )

  const onInvalid = useCallback(
    (errors: FieldErrors<Values>) => {
      const stray = messageAt(errors, "root.contract")
      setBanner(stray === undefined ? null : bannerOf(latest.current.failed, { status: undefined, message: stray }))
      focusFirstInvalid()
    },
    [focusFirstInvalid]
  )

  const onSubmit = useMemo(() => form.handleSubmit(onValid, onInvalid), [form, onValid, onInvalid])
  useEffect(() => {
    const subscription = form.watch((values) => latest.current.onChange?.(values as Values))
    return () => subscription.unsubscribe()
  }, [form])
  const { errors, isSubmitting } = form.formState
  // Closed while its save waits for the server (the link is down): the console's shell says a refusal instead.
  const submitting = useRef(false)
  submitting.current = isSubmitting
  useEffect(
    () => () => {
      if (submitting.current) currentStore()?.abandon()
    },
    []
  )

  const field = (name: string, label: string, fieldOptions?: { readonly required?: boolean; readonly hint?: string }): FieldView => {
    fields.current.set(name, label)
    const message = messageAt(errors, name)
    return fieldView(`${prefix}-${name.replace(/\W/gu, "-")}`, label, message, fieldOptions)
  }

  return {
    form,
    formProps: {
      ref: formRef,
      noValidate: true,
      onSubmit: (event) => {
        intent.current = undefined
        void onSubmit(event)
      }
    },
    submit: () => {
      intent.current = undefined
      void onSubmit()
    },
    submitWith: (wanted) => {
      intent.current = wanted
      void onSubmit()
    },
    busy: isSubmitting,
    banner,
    showIssues,
    field
  }
}
