import { Card, Checkbox, Flex, Grid, Heading, Text } from "@radix-ui/themes"
import type { ReactNode } from "react"
import { useController } from "react-hook-form"
import type { ContactInput, CoreTeamContact } from "../../../contract/contacts.ts"
import { contactPriorities, contactStatuses, type ContactStatus } from "../../../contract/contact-rules.ts"
import { inputDateTime } from "../../lib/dates.ts"
import { useContractForm, useContractFormContext } from "../../lib/form/use-contract-form.ts"
import { ContractFormShell, FormActions, FormField, TextInput } from "../../ui/FormField.tsx"
import { OpenRecordNotice } from "../../ui/OpenRecordNotice.tsx"
import { useExpectedVersion, useOpenRecord } from "../../lib/store/use-open-record.ts"
import type { CallAs } from "../../lib/store/handle.ts"
import { CONTACT_KIND } from "../../api/contacts.ts"
import { coreTeamTexts as t } from "./texts.ts"

/** The form's values as typed: text everywhere but the checkbox. */
export type FormValues = {
  readonly name: string
  readonly email: string
  readonly organization: string
  readonly role: string
  readonly category: string
  readonly priority: string
  readonly subject: string
  readonly details: string
  readonly projectName: string
  readonly stage: string
  readonly piIntegration: string
  readonly website: string
  readonly status: string
  readonly submittedAt: string
  readonly assignedTo: string
  readonly response: string
  readonly internalNotes: string
  readonly followUpRequired: boolean
  readonly expectedResponseTime: string
}

export const valuesOf = (contact: CoreTeamContact | null): FormValues => ({
  name: contact?.contactInfo.name ?? "",
  email: contact?.contactInfo.email ?? "",
  organization: contact?.contactInfo.organization ?? "",
  role: contact?.contactInfo.role ?? "",
  category: contact?.inquiry.category ?? "Partnership Proposal",
  priority: contact?.inquiry.priority ?? "medium",
  subject: contact?.inquiry.subject ?? "",
  details: contact?.inquiry.details ?? "",
  projectName: contact?.projectInfo.name ?? "",
  stage: contact?.projectInfo.stage ?? "",
  piIntegration: contact?.projectInfo.piIntegration ?? "",
  website: contact?.projectInfo.website ?? "",
  status: contact?.status ?? "new",
  submittedAt: inputDateTime(contact?.submittedAt ?? new Date().toISOString()),
  assignedTo: contact?.assignedTo ?? "",
  response: contact?.response ?? "",
  internalNotes: contact?.internalNotes ?? "",
  followUpRequired: contact?.followUpRequired ?? false,
  expectedResponseTime: String(contact?.expectedResponseTime ?? 72)
})

export const requiredFields = ["name", "role", "category", "priority", "subject", "details", "status", "submittedAt"] as const

/** Where each field's value goes in what is sent: a 400 at `contactInfo.name` belongs to Contact Name. */
const sentAt: Readonly<Record<string, string>> = {
  name: "contactInfo.name",
  email: "contactInfo.email",
  organization: "contactInfo.organization",
  role: "contactInfo.role",
  category: "inquiry.category",
  priority: "inquiry.priority",
  subject: "inquiry.subject",
  details: "inquiry.details",
  projectName: "projectInfo.name",
  stage: "projectInfo.stage",
  piIntegration: "projectInfo.piIntegration",
  website: "projectInfo.website"
}
const fieldAt = new Map(Object.entries(sentAt).map(([field, path]) => [path, field]))
export const fieldOfPath = (path: string): string => fieldAt.get(path) ?? path

const NUMBER = /^-?\d+(?:\.\d+)?$/u

/** A typed date-time as an instant, or the text itself when it is none (the contract says so). */
const instant = (text: string) => (Number.isNaN(Date.parse(text)) ? text : new Date(text).toISOString())

/** What the form sends: the contract's input, but hours that are not a number stay as typed, for the contract to refuse. */
type Sent = Omit<ContactInput, "expectedResponseTime"> & { readonly expectedResponseTime: number | string }

export const inputFrom = (values: FormValues, target: CoreTeamContact | null): Sent => {
  const hours = values.expectedResponseTime.trim()
  return {
    contactInfo: { name: values.name.trim(), email: values.email.trim(), organization: values.organization.trim(), role: values.role.trim() },
    inquiry: {
      category: values.category.trim(),
      priority: values.priority as ContactInput["inquiry"]["priority"] & string,
      subject: values.subject.trim(),
      details: values.details.trim()
    },
    projectInfo: { name: values.projectName.trim(), stage: values.stage.trim(), piIntegration: values.piIntegration.trim(), website: values.website.trim() },
    status: values.status as ContactStatus,
    // The field shows minutes: an untouched one keeps the stored time to the millisecond.
    submittedAt: target !== null && values.submittedAt === inputDateTime(target.submittedAt) ? target.submittedAt : instant(values.submittedAt),
    assignedTo: values.assignedTo.trim(),
    response: values.response.trim(),
    internalNotes: values.internalNotes.trim(),
    followUpRequired: values.followUpRequired,
    // Empty hours are the default 72 (docs/decisions.md); a number goes as a number, anything else as typed,
    // so the contract says it must be a whole number instead of the form storing 72 for "abc".
    expectedResponseTime: hours === "" ? 72 : NUMBER.test(hours) ? Number(hours) : hours
  }
}

/** The fields moderators may change: how a contact is handled, not what it says (§3). */
const handling = new Set(["status", "assignedTo", "response", "internalNotes", "expectedResponseTime", "priority", "followUpRequired"])

const FollowUp = ({ disabled }: { readonly disabled: boolean }) => {
  const contract = useContractFormContext()
  const { field } = useController({ name: "followUpRequired", control: contract.form.control })
  return (
    <Text as="label" size="2">
      <Flex gap="2" align="center">
        <Checkbox ref={field.ref} checked={field.value === true} disabled={disabled} onCheckedChange={(checked) => field.onChange(checked === true)} />
        Follow Up Required
      </Flex>
    </Text>
  )
}

const Choice = ({
  name,
  label,
  options,
  labels,
  disabled
}: {
  readonly name: "priority" | "status"
  readonly label: string
  readonly options: ReadonlyArray<string>
  readonly labels: Readonly<Record<string, string>>
  readonly disabled: boolean
}) => {
  const { form } = useContractFormContext()
  return (
    <FormField name={name} label={label} required>
      {(control) => (
        <select {...control} className="native-select" disabled={disabled} {...form.register(name)}>
          {options.map((option) => (
            <option key={option} value={option}>
              {labels[option]}
            </option>
          ))}
        </select>
      )}
    </FormField>
  )
}

/**
 * The core-team form (docs/product-spec.md §3): every field, the required ones marked, on the one
 * form pattern (docs/architecture.md, "Forms"). What a contact says is an admin's to change;
 * moderators handle it (status, priority, assignee, response, notes, follow-up, hours). It
 * opens with the cursor in its first field; Escape closes it.
 */
export const ContactForm = ({
  target,
  canEdit,
  send,
  onSaved,
  onCancel
}: {
  /** The contact edited, or null for a new one. */
  readonly target: CoreTeamContact | null
  readonly canEdit: boolean
  /** Saves the contact at `version` (the one opened, past this browser's changes to it still waiting). */
  readonly send: (input: ContactInput, as: CallAs, version: number) => Promise<unknown>
  readonly onSaved: () => void
  readonly onCancel: () => void
}) => {
  const version = useExpectedVersion(CONTACT_KIND, target)
  const contract = useContractForm<FormValues, ContactInput>({
    values: valuesOf(target),
    schema: () => import("../../../contract/contacts.ts").then((module) => module.ContactInput),
    toPayload: (values) => inputFrom(values, target),
    fieldOf: fieldOfPath,
    send: (input, _intent, as) => send(input, as, version),
    ...(target === null ? {} : { record: { kind: CONTACT_KIND, id: target._id, label: target.inquiry.subject, opened: target } }),
    saved: onSaved,
    kept: onCancel,
    failed: t.saveFailed
  })
  const busy = contract.busy
  const field = (
    name: keyof FormValues,
    label: string,
    control: "text" | "email" | "url" | "textarea" | "number" | "datetime" = "text",
    first = false
  ): ReactNode => (
    <TextInput
      key={name}
      name={name}
      label={label}
      kind={control === "textarea" ? "text" : control}
      multiline={control === "textarea"}
      required={(requiredFields as ReadonlyArray<string>).includes(name)}
      autoFocus={first}
      disabled={busy || (!canEdit && !handling.has(name))}
    />
  )
  const title = target === null ? t.addTitle : t.editTitle
  // The contact as the browser's store has it now: a colleague's change or delete is said here.
  const record = useOpenRecord(CONTACT_KIND, target, busy)
  return (
    <Card mb="4" asChild>
      <div
        onKeyDown={(event) => {
          if (event.key === "Escape" && !busy) onCancel()
        }}
      >
        <ContractFormShell form={contract} label={title}>
          <Heading as="h2" size="4" mb="1">
            {title}
          </Heading>
          <Text as="p" size="1" color="gray" mb="3">
            {t.required}
          </Text>
          <OpenRecordNotice record={record} noun="contact" editing />
          <Grid columns={{ initial: "1", md: "2" }} gap="3">
            {field("name", "Contact Name", "text", canEdit)}
            {field("email", "Email", "email")}
            {field("organization", "Organization")}
            {field("role", "Role")}
            {field("category", "Inquiry Category")}
            <Choice name="priority" label="Priority" options={contactPriorities} labels={t.priorities} disabled={busy} />
            {field("subject", "Subject")}
            <Choice name="status" label="Status" options={contactStatuses} labels={t.statuses} disabled={busy} />
            {field("details", "Details", "textarea")}
            {field("response", "Response", "textarea")}
            {field("projectName", "Project Name")}
            {field("stage", "Project Stage")}
            {field("piIntegration", "Pi Integration")}
            {field("website", "Project Website", "url")}
            {field("submittedAt", "Submitted At", "datetime")}
            {field("assignedTo", "Assigned To", "text", !canEdit)}
            {field("internalNotes", "Internal Notes", "textarea")}
            {field("expectedResponseTime", "Expected Response Time (hours)", "number")}
            <FollowUp disabled={busy} />
          </Grid>
          <FormActions busy={busy} submit={busy ? t.saving : target === null ? t.create : t.update} cancel={t.cancel} onCancel={onCancel} />
        </ContractFormShell>
      </div>
    </Card>
  )
}
