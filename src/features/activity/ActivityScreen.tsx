import { Cross2Icon, ReloadIcon } from "@radix-ui/react-icons"
import { Badge, Button, Flex, Text, TextField } from "@radix-ui/themes"
import { useMemo } from "react"
import { Link, useLocation } from "wouter"
import { activityAreaLabels, activityAreas, type ActivityEntry } from "../../../contract/activity.ts"
import { activityExportPath, listActivity } from "../../api/admin.ts"
import { type Command, useRegisterCommands } from "../../lib/commands.tsx"
import { shortDate } from "../../lib/dates.ts"
import { useCsvExport } from "../../lib/list/export-csv.ts"
import { listCommands } from "../../lib/list/list-commands.ts"
import { useUrlQuery } from "../../lib/list/url-query.ts"
import { useDebouncedSearch } from "../../lib/list/use-debounced-search.ts"
import { useList } from "../../lib/list/use-list.ts"
import { useRowKeyboard } from "../../lib/list/use-row-keyboard.ts"
import { FilterSelect } from "../../ui/list/FilterSelect.tsx"
import { ExportCsvButton, ListFrame } from "../../ui/list/ListFrame.tsx"
import { ListTable } from "../../ui/list/ListTable.tsx"
import { Screen } from "../../ui/Screen.tsx"
import { SearchField } from "../../ui/SearchField.tsx"
import { historyHref, recordHref, verbOf } from "./record-link.ts"
import { Actor, RecordLink } from "./RecordLink.tsx"

const t = {
  title: "Activity Log",
  loading: "Loading activity...",
  loadFailed: "Failed to load the activity log",
  empty: "No activity matches these filters",
  searchLabel: "Search by admin",
  searchPlaceholder: "Admin name or e-mail...",
  allAreas: "All areas",
  from: "From",
  to: "To",
  refresh: "Refresh",
  clear: "Clear filters",
  record: (id: string) => `Only record ${id.slice(0, 8)}…`,
  keyboardHint: "j/k move · Enter open the record · h this record's history"
} as const

const day = /^\d{4}-\d{2}-\d{2}$/
const querySpec = {
  filters: { area: activityAreas },
  textFilters: { from: day, to: day, record: /^[\w:.-]{1,64}$/, action: /^[a-z-]+\.[a-z_]+$/ }
}

/**
 * The activity log (docs/api.md, "Activity log") on the shared list pattern: who did what to
 * which record and when, filtered by admin, area, record and dates in the URL, each event linked
 * to its record, exported as CSV.
 */
export const ActivityScreen = () => {
  const url = useUrlQuery(querySpec)
  const { query } = url
  const [, navigate] = useLocation()
  const list = useList(query, (token, q) => listActivity(token, q))
  const [searchText, setSearchText] = useDebouncedSearch(query.search, (search) => url.go({ search, page: 1 }, { replace: true }))
  const csv = useCsvExport(() => activityExportPath(query), "activity-log.csv")
  const open = (entry: ActivityEntry) => {
    const href = recordHref(entry)
    if (href !== null) navigate(href)
  }
  const history = (entry: ActivityEntry) => entry.entityId !== null && url.go({ filters: { ...query.filters, record: entry.entityId }, page: 1 })
  const keyboard = useRowKeyboard<ActivityEntry, HTMLTableRowElement>(list.rows, { open, keys: { h: history } })
  const focused = keyboard.focusedRow
  const filtered = Object.keys(query.filters).length > 0 || query.search !== ""
  const commands = useMemo((): ReadonlyArray<Command> => [
    ...(focused === undefined || recordHref(focused) === null ? [] : [{ id: "activity:open", label: `Open ${focused.record.label ?? "the record"}`, group: t.title, shortcut: ["Enter"], run: () => open(focused) }]),
    ...(focused?.entityId == null ? [] : [{ id: "activity:history", label: "Show this record's history", group: t.title, shortcut: ["h"], run: () => history(focused) }]),
    { id: "activity:clear", label: t.clear, group: t.title, guard: () => filtered, run: () => url.go({ filters: {}, search: "", page: 1 }) },
    ...activityAreas.map((area): Command => ({
      id: `activity:area:${area}`,
      label: `Show activity in ${activityAreaLabels[area]}`,
      group: t.title,
      guard: () => query.filters.area !== area,
      run: () => url.filter("area", area)
    })),
    ...listCommands({ group: t.title, noun: "activity log", list, url, csv })
  ], [focused, query, list.pagination, csv.busy, filtered])
  useRegisterCommands(commands)

  const dateField = (name: "from" | "to", label: string) => (
    <Flex gap="1" align="center">
      <Text as="label" size="2" htmlFor={`activity-${name}`}>{label}</Text>
      <TextField.Root id={`activity-${name}`} type="date" value={query.filters[name] ?? ""} onChange={(event) => url.filter(name, event.target.value)} />
    </Flex>
  )

  return (
    <Screen title={t.title}>
      <Flex gap="3" mb="3" wrap="wrap" align="center">
        <SearchField label={t.searchLabel} placeholder={t.searchPlaceholder} value={searchText} onChange={setSearchText} busy={list.loading && !list.firstLoad} />
        <FilterSelect url={url} name="area" label="Area" allLabel={t.allAreas} options={activityAreas.map((area) => [area, activityAreaLabels[area]] as const)} />
        {dateField("from", t.from)}
        {dateField("to", t.to)}
        <Button variant="soft" onClick={list.reload}><ReloadIcon /> {t.refresh}</Button>
        <ExportCsvButton busy={csv.busy} onExport={csv.run} />
      </Flex>
      {(query.filters.record !== undefined || query.filters.action !== undefined || filtered) && (
        <Flex gap="2" mb="3" align="center" wrap="wrap">
          {query.filters.record !== undefined && <Badge highContrast color="violet">{t.record(query.filters.record)}</Badge>}
          {query.filters.action !== undefined && <Badge highContrast color="violet">{query.filters.action}</Badge>}
          <Button size="1" variant="soft" color="gray" onClick={() => url.go({ filters: {}, search: "", page: 1 })}><Cross2Icon /> {t.clear}</Button>
        </Flex>
      )}
      <ListFrame list={list} loadingText={t.loading} loadFailedText={t.loadFailed} onPage={(page) => url.go({ page })} exportError={csv.error}>
        <ListTable
          caption={t.title}
          list={list}
          keyboard={keyboard}
          empty={t.empty}
          columns={[
            { label: "When", cell: (entry) => <time dateTime={entry.at} title={entry.at}>{shortDate(entry.at)} {new Date(entry.at).toLocaleTimeString()}</time> },
            { label: "Who", cell: (entry) => <Actor entry={entry} /> },
            { label: "Area", cell: (entry) => <Badge highContrast color="gray">{activityAreaLabels[entry.area as keyof typeof activityAreaLabels] ?? entry.area}</Badge> },
            { label: "What", cell: (entry) => <Text>{verbOf(entry.action)}{entry.toState !== null && entry.fromState !== null ? ` (${entry.fromState} → ${entry.toState})` : entry.toState !== null ? ` (${entry.toState})` : ""}</Text> },
            { label: "Record", cell: (entry) => <RecordLink entry={entry} /> },
            {
              label: "History",
              cell: (entry) => entry.entityId === null ? null : <Link href={historyHref(entry.entityId)} tabIndex={-1} aria-label={`History of ${entry.record.label ?? entry.entityId}`}>History</Link>
            },
            { label: "Address", cell: (entry) => <Text size="1" color="gray">{entry.ip ?? ""}</Text> }
          ]}
        />
      </ListFrame>
      <Text as="p" size="1" color="gray" mt="3">{t.keyboardHint}</Text>
    </Screen>
  )
}
