import { PlusIcon, ReloadIcon } from "@radix-ui/react-icons"
import { Badge, Button, Callout, Card, Checkbox, Flex, Grid, Heading, Text, TextArea, TextField } from "@radix-ui/themes"
import { type ReactNode, useMemo, useState } from "react"
import type { ContactInput, CoreTeamContact } from "../../../contract/contacts.ts"
import { contactPriorities, contactStatuses, type ContactStatus } from "../../../contract/inquiry-rules.ts"
import { failureOf } from "../../../machines/call-failure.ts"
import { contactExportPath, deleteContact, inputOf, listContacts, saveContact } from "../../api/inquiries.ts"
import { AuthContext } from "../../lib/auth.tsx"
import { type Command, useRegisterCommands } from "../../lib/commands.tsx"
import { shortDate } from "../../lib/dates.ts"
import { useCsvExport } from "../../lib/list/export-csv.ts"
import { listCommands } from "../../lib/list/list-commands.ts"
import { useUrlQuery } from "../../lib/list/url-query.ts"
import { useDebouncedSearch } from "../../lib/list/use-debounced-search.ts"
import { useList } from "../../lib/list/use-list.ts"
import { useRowKeyboard } from "../../lib/list/use-row-keyboard.ts"
import { ConfirmDelete } from "../../ui/ConfirmDelete.tsx"
import { CardList } from "../../ui/list/CardList.tsx"
import { FilterSelect } from "../../ui/list/FilterSelect.tsx"
import { ExportCsvButton, ListFrame } from "../../ui/list/ListFrame.tsx"
import { Screen } from "../../ui/Screen.tsx"
import { SearchField } from "../../ui/SearchField.tsx"
import { localDateTime } from "../../../machines/local-time.ts"

/** docs/product-spec.md §2 "Core Team Contacts", §3, §5; quoted texts are exact. */
const t = {
  title: "Core Team Contacts",
  add: "Add New Contact",
  addTitle: "Add New Core Team Contact",
  editTitle: "Edit Core Team Contact",
  create: "Create",
  update: "Update",
  saving: "Saving…",
  cancel: "Cancel",
  edit: "Edit",
  delete: "Delete",
  deleting: "Deleting…",
  deleteTitle: "Delete contact",
  confirmDelete: "Are you sure you want to delete this core team contact?",
  deleteFailed: "Failed to delete contact",
  saveFailed: "Failed to save contact",
  statusFailed: "Failed to change the status",
  loading: "Loading core team contacts...",
  loadFailed: "Failed to fetch core team contacts",
  empty: "No core team contacts found",
  searchLabel: "Search contacts",
  searchPlaceholder: "Search name, email, subject...",
  refresh: "Refresh",
  allStatuses: "All statuses",
  allPriorities: "All priorities",
  dismiss: "Dismiss",
  statuses: { new: "New", in_progress: "In Progress", responded: "Responded", resolved: "Resolved", closed: "Closed" } satisfies Record<ContactStatus, string>,
  priorities: { low: "Low", medium: "Medium", high: "High", urgent: "Urgent" } as Record<string, string>,
  required: "Fields marked * are required.",
  submitted: (date: string) => `Submitted ${date}`,
  keyboardHint: "j/k move · Enter edit · 1–5 set the status (new, in progress, responded, resolved, closed) · Delete delete"
} as const

const statusColors = { new: "blue", in_progress: "yellow", responded: "violet", resolved: "green", closed: "gray" } as const satisfies Record<ContactStatus, string>
const priorityColors: Record<string, "gray" | "blue" | "orange" | "red"> = { low: "gray", medium: "blue", high: "orange", urgent: "red" }

/** The form's values as typed: text everywhere but the checkbox. */
interface FormValues {
  readonly name: string; readonly email: string; readonly organization: string; readonly role: string
  readonly category: string; readonly priority: string; readonly subject: string; readonly details: string
  readonly projectName: string; readonly stage: string; readonly piIntegration: string; readonly website: string
  readonly status: string; readonly submittedAt: string; readonly assignedTo: string; readonly response: string
  readonly internalNotes: string; readonly followUpRequired: boolean; readonly expectedResponseTime: string
}

/** A date-time as `datetime-local` shows it, in the browser's time zone. */
const localInput = (iso: string) => localDateTime(new Date(iso))

const valuesOf = (contact: CoreTeamContact | null): FormValues => ({
  name: contact?.contactInfo.name ?? "", email: contact?.contactInfo.email ?? "", organization: contact?.contactInfo.organization ?? "",
  role: contact?.contactInfo.role ?? "", category: contact?.inquiry.category ?? "Partnership Proposal", priority: contact?.inquiry.priority ?? "medium",
  subject: contact?.inquiry.subject ?? "", details: contact?.inquiry.details ?? "", projectName: contact?.projectInfo.name ?? "",
  stage: contact?.projectInfo.stage ?? "", piIntegration: contact?.projectInfo.piIntegration ?? "", website: contact?.projectInfo.website ?? "",
  status: contact?.status ?? "new", submittedAt: localInput(contact?.submittedAt ?? new Date().toISOString()), assignedTo: contact?.assignedTo ?? "",
  response: contact?.response ?? "", internalNotes: contact?.internalNotes ?? "", followUpRequired: contact?.followUpRequired ?? false,
  expectedResponseTime: String(contact?.expectedResponseTime ?? 72)
})

const requiredFields = ["name", "role", "category", "priority", "subject", "details", "status", "submittedAt"] as const

const inputFrom = (values: FormValues, target: CoreTeamContact | null): ContactInput => {
  const hours = Number.parseInt(values.expectedResponseTime, 10)
  return {
    contactInfo: { name: values.name.trim(), email: values.email.trim(), organization: values.organization.trim(), role: values.role.trim() },
    inquiry: { category: values.category.trim(), priority: values.priority as ContactInput["inquiry"]["priority"] & string, subject: values.subject.trim(), details: values.details.trim() },
    projectInfo: { name: values.projectName.trim(), stage: values.stage.trim(), piIntegration: values.piIntegration.trim(), website: values.website.trim() },
    status: values.status as ContactStatus,
    // The field shows minutes: an untouched one keeps the stored time to the millisecond.
    submittedAt: target !== null && values.submittedAt === localInput(target.submittedAt) ? target.submittedAt : new Date(values.submittedAt).toISOString(),
    assignedTo: values.assignedTo.trim(),
    response: values.response.trim(),
    internalNotes: values.internalNotes.trim(),
    followUpRequired: values.followUpRequired,
    // The spec's fallback: hours that are not a number are 72.
    expectedResponseTime: Number.isNaN(hours) || hours < 1 ? 72 : hours
  }
}

interface FormState { readonly target: CoreTeamContact | null; readonly values: FormValues; readonly busy: boolean; readonly error: string | null }

/**
 * The core team's inbox (docs/product-spec.md §2 "Core Team Contacts"): the toggled form with
 * every field of §3, the paged list (10), filters in the URL, `1`–`5` for the status. Moderators
 * handle contacts (status, priority, assignee, response, notes); what a contact says is an
 * admin's to change, as the server enforces.
 */
export const CoreTeamScreen = () => {
  const url = useUrlQuery({ filters: { status: contactStatuses, priority: contactPriorities } })
  const { query } = url
  const token = AuthContext.useSelector((snapshot) => snapshot.context.token) ?? ""
  const canEdit = AuthContext.useSelector((snapshot) => snapshot.context.user?.role !== "moderator")
  const list = useList(query, listContacts)
  const [searchText, setSearchText] = useDebouncedSearch(query.search, (search) => url.go({ search, page: 1 }, { replace: true }))
  const csv = useCsvExport(() => contactExportPath(query), "core-team-contacts.csv")
  const [form, setForm] = useState<FormState | null>(null)
  const [deleting, setDeleting] = useState<{ contact: CoreTeamContact; busy: boolean; error: string | null } | null>(null)
  const [statusError, setStatusError] = useState<string | null>(null)
  const rows = list.rows

  const openForm = (contact: CoreTeamContact | null) => setForm({ target: contact, values: valuesOf(contact), busy: false, error: null })
  const missing = form === null ? [] : requiredFields.filter((field) => String(form.values[field]).trim() === "")
  const save = async () => {
    if (form === null || missing.length > 0) return
    setForm({ ...form, busy: true, error: null })
    try {
      await saveContact(token, form.target, inputFrom(form.values, form.target))
      setForm(null)
      list.reload()
    } catch (error) {
      setForm({ ...form, busy: false, error: `${t.saveFailed}: ${failureOf(error).message}` })
    }
  }
  const setStatus = async (contact: CoreTeamContact, status: ContactStatus) => {
    if (contact.status === status) return
    setStatusError(null)
    try {
      await saveContact(token, contact, { ...inputOf(contact), status })
    } catch (error) {
      setStatusError(`${t.statusFailed}: ${failureOf(error).message}`)
    }
    list.reload()
  }
  const confirmDelete = async () => {
    if (deleting === null) return
    setDeleting({ ...deleting, busy: true, error: null })
    try {
      await deleteContact(token, deleting.contact)
      setDeleting(null)
      list.reload()
    } catch (error) {
      setDeleting({ ...deleting, busy: false, error: `${t.deleteFailed}: ${failureOf(error).message}` })
    }
  }
  const keyboard = useRowKeyboard<CoreTeamContact, HTMLDivElement>(rows, {
    open: openForm,
    edit: openForm,
    remove: canEdit ? (contact) => setDeleting({ contact, busy: false, error: null }) : undefined,
    keys: Object.fromEntries(contactStatuses.map((status, at) => [String(at + 1), (contact: CoreTeamContact) => void setStatus(contact, status)]))
  })
  const focused = keyboard.focusedRow
  const commands = useMemo((): ReadonlyArray<Command> => {
    const group = t.title
    return [
      ...(canEdit ? [{ id: "core-team:new", label: t.add, group, keywords: ["add", "create"], guard: () => form === null, run: () => openForm(null) }] : []),
      ...(focused === undefined ? [] : contactStatuses.filter((status) => status !== focused.status).map((status): Command => ({
        id: `core-team:status:${status}`,
        label: `Set status ${t.statuses[status]}: ${focused.contactInfo.name}`,
        group,
        shortcut: [String(contactStatuses.indexOf(status) + 1)],
        guard: () => form === null,
        run: () => void setStatus(focused, status)
      }))),
      ...listCommands({ group, noun: "core team contacts", list, url, csv })
    ]
  }, [focused, form, canEdit, query, list.pagination, csv.busy])
  useRegisterCommands(commands)

  const field = (name: keyof FormValues, label: string, control: "text" | "email" | "url" | "textarea" | "number" | "datetime-local" = "text"): ReactNode => {
    if (form === null) return null
    const id = `contact-${name}`
    const required = (requiredFields as ReadonlyArray<string>).includes(name)
    // What a contact says is an admin's to change; moderators handle it.
    const handling = ["status", "assignedTo", "response", "internalNotes", "expectedResponseTime", "priority"].includes(name)
    const disabled = form.busy || (!canEdit && !handling)
    const value = String(form.values[name])
    const set = (next: string) => setForm({ ...form, values: { ...form.values, [name]: next } })
    return (
      <Flex direction="column" gap="1" key={name}>
        <Text as="label" htmlFor={id} size="2" weight="medium">{label}{required ? " *" : ""}</Text>
        {control === "textarea"
          ? <TextArea id={id} rows={3} maxLength={5000} value={value} disabled={disabled} onChange={(event) => set(event.target.value)} />
          : <TextField.Root id={id} type={control} value={value} disabled={disabled} maxLength={control === "number" ? undefined : 200} min={control === "number" ? 1 : undefined}
            onChange={(event) => set(event.target.value)} />}
      </Flex>
    )
  }
  const select = (name: "priority" | "status", label: string, options: ReadonlyArray<string>, labels: Record<string, string>) => form === null ? null : (
    <Flex direction="column" gap="1" key={name}>
      <Text as="label" htmlFor={`contact-${name}`} size="2" weight="medium">{label} *</Text>
      <select id={`contact-${name}`} className="native-select" value={form.values[name]} disabled={form.busy}
        onChange={(event) => setForm({ ...form, values: { ...form.values, [name]: event.target.value } })}>
        {options.map((option) => <option key={option} value={option}>{labels[option]}</option>)}
      </select>
    </Flex>
  )

  return (
    <Screen title={t.title}>
      <Flex gap="3" mb="3" wrap="wrap" align="center">
        {canEdit && <Button onClick={() => openForm(null)}><PlusIcon /> {t.add}</Button>}
        <SearchField label={t.searchLabel} placeholder={t.searchPlaceholder} value={searchText} onChange={setSearchText} busy={list.loading && !list.firstLoad} />
        <FilterSelect url={url} name="status" label="Status" allLabel={t.allStatuses} options={contactStatuses.map((status) => [status, t.statuses[status]] as const)} />
        <FilterSelect url={url} name="priority" label="Priority" allLabel={t.allPriorities} options={contactPriorities.map((priority) => [priority, t.priorities[priority]!] as const)} />
        <Button variant="soft" onClick={list.reload}><ReloadIcon /> {t.refresh}</Button>
        <ExportCsvButton busy={csv.busy} onExport={csv.run} />
      </Flex>
      {statusError !== null && (
        <Callout.Root color="red" role="alert" mb="3">
          <Callout.Text>{statusError} <Button size="1" variant="soft" color="red" onClick={() => setStatusError(null)}>{t.dismiss}</Button></Callout.Text>
        </Callout.Root>
      )}
      {form !== null && (
        <Card mb="4" asChild>
          <form aria-label={form.target === null ? t.addTitle : t.editTitle} onSubmit={(event) => { event.preventDefault(); void save() }}>
            <Heading as="h2" size="4" mb="1">{form.target === null ? t.addTitle : t.editTitle}</Heading>
            <Text as="p" size="1" color="gray" mb="3">{t.required}</Text>
            <Grid columns={{ initial: "1", md: "2" }} gap="3">
              {field("name", "Contact Name")}
              {field("email", "Email", "email")}
              {field("organization", "Organization")}
              {field("role", "Role")}
              {field("category", "Inquiry Category")}
              {select("priority", "Priority", contactPriorities, t.priorities)}
              {field("subject", "Subject")}
              {select("status", "Status", contactStatuses, t.statuses)}
              {field("details", "Details", "textarea")}
              {field("response", "Response", "textarea")}
              {field("projectName", "Project Name")}
              {field("stage", "Project Stage")}
              {field("piIntegration", "Pi Integration")}
              {field("website", "Project Website", "url")}
              {field("submittedAt", "Submitted At", "datetime-local")}
              {field("assignedTo", "Assigned To")}
              {field("internalNotes", "Internal Notes", "textarea")}
              {field("expectedResponseTime", "Expected Response Time (hours)", "number")}
              <Text as="label" size="2">
                <Flex gap="2" align="center">
                  <Checkbox checked={form.values.followUpRequired} disabled={form.busy}
                    onCheckedChange={(checked) => setForm({ ...form, values: { ...form.values, followUpRequired: checked === true } })} />
                  Follow Up Required
                </Flex>
              </Text>
            </Grid>
            {form.error !== null && <Callout.Root color="red" role="alert" mt="3"><Callout.Text>{form.error}</Callout.Text></Callout.Root>}
            <Flex gap="3" mt="4">
              <Button type="submit" disabled={form.busy || missing.length > 0}>{form.busy ? t.saving : form.target === null ? t.create : t.update}</Button>
              <Button type="button" variant="soft" color="gray" disabled={form.busy} onClick={() => setForm(null)}>{t.cancel}</Button>
            </Flex>
          </form>
        </Card>
      )}
      <ListFrame list={list} loadingText={t.loading} loadFailedText={t.loadFailed} onPage={(page) => url.go({ page })} exportError={csv.error}>
        <CardList
          label={t.title}
          list={list}
          rowKey={(row) => row._id}
          keyboard={keyboard}
          empty={t.empty}
          card={(contact) => (
            <div aria-label={contact.contactInfo.name}>
              <Flex justify="between" align="start" gap="2">
                <div>
                  <Text as="div" weight="bold">{contact.contactInfo.name}</Text>
                  <Text as="div" size="1" color="gray">{[contact.contactInfo.role, contact.contactInfo.organization].filter((part) => part !== "").join(" · ")}</Text>
                </div>
                <Flex gap="2">
                  <Badge color={priorityColors[contact.inquiry.priority] ?? "gray"}>{t.priorities[contact.inquiry.priority]}</Badge>
                  <Badge color={statusColors[contact.status]}>{t.statuses[contact.status]}</Badge>
                </Flex>
              </Flex>
              <Text as="div" size="2" weight="medium" mt="2">{contact.inquiry.subject}</Text>
              <Text as="div" size="1" color="gray">{contact.inquiry.category}</Text>
              <Text as="p" size="2" my="1" className="contact-details">{contact.inquiry.details}</Text>
              {contact.contactInfo.email !== "" && <Text as="div" size="1">{contact.contactInfo.email}</Text>}
              <Text as="div" size="1" color="gray">{t.submitted(shortDate(contact.submittedAt))}</Text>
              <Flex gap="2" mt="3">
                <Button size="1" variant="soft" color="gray" tabIndex={-1} onClick={() => openForm(contact)}>{t.edit}</Button>
                {canEdit && <Button size="1" variant="soft" color="red" tabIndex={-1} onClick={() => setDeleting({ contact, busy: false, error: null })}>{t.delete}</Button>}
              </Flex>
            </div>
          )}
        />
      </ListFrame>
      <Text as="p" size="1" color="gray" mt="3">{t.keyboardHint}</Text>
      <ConfirmDelete
        state={deleting === null ? null : { subject: deleting.contact.contactInfo.name, busy: deleting.busy, error: deleting.error }}
        title={t.deleteTitle}
        question={t.confirmDelete}
        texts={t}
        onClose={() => setDeleting(null)}
        onConfirm={() => void confirmDelete()}
      />
    </Screen>
  )
}
