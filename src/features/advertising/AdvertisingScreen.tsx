import "./advertising.css"
import { ReloadIcon } from "@radix-ui/react-icons"
import { Button, Flex, Heading, Text } from "@radix-ui/themes"
import { useActorRef, useSelector } from "@xstate/react"
import { useCallback, useEffect, useMemo, useRef, useState } from "react"
import { fromPromise } from "xstate"
import type { AdvertisingInquiry } from "../../../contract/advertising.ts"
import { industries, inquiryMoves, type InquiryStatus, inquiryStatuses } from "../../../contract/inquiry-rules.ts"
import { detailOpen, inquiryMachine, movesFor } from "../../../machines/inquiry.ts"
import { exportInquiries, listInquiries, moveInquiry } from "../../api/inquiries.ts"
import { useChanges } from "../../api/change-stream.ts"
import { type Command, useRegisterCommands } from "../../lib/commands.tsx"
import { shortDate } from "../../lib/dates.ts"
import { useListScreen } from "../../lib/list/use-list-screen.ts"
import type { RowAction } from "../../lib/list/use-row-focus.ts"
import { useStableCallback } from "../../lib/use-stable.ts"
import { CountCards } from "../../ui/CountCards.tsx"
import { filterOf, ListScreen, listTextsOf } from "../../ui/list/ListScreen.tsx"
import { InquiryDetails } from "./InquiryDetails.tsx"
import { StatusBadge } from "./StatusBadge.tsx"
import { advertisingTexts as t } from "./texts.ts"

const spec = {
  title: t.title,
  noun: "inquiries",
  querySpec: { filters: { status: inquiryStatuses, industry: industries } },
  fetchPage: listInquiries,
  idOf: (inquiry: AdvertisingInquiry) => inquiry._id,
  history: { kind: "inquiry" as const, labelOf: (inquiry: AdvertisingInquiry) => inquiry.companyName },
  exportCsv: exportInquiries
}
const filters = [
  filterOf("status", "Status", t.allStatuses, inquiryStatuses, (status) => t.statuses[status]),
  filterOf("industry", "Industry", t.allIndustries, industries)
]

/**
 * The advertising inquiries (docs/product-spec.md §2) on the one list screen: the four counts,
 * filters, cards with the payment when there is one, and the detail modal driven by the inquiry
 * machine (machines/inquiry.ts), whose snapshot decides the buttons, `c` and the palette's moves.
 */
export const AdvertisingScreen = () => {
  const listChanged = useStableCallback((): void => reload())
  const [detailLogic] = useState(() =>
    inquiryMachine.provide({
      actors: { update: fromPromise(({ input }) => moveInquiry(input)) },
      actions: { listChanged }
    })
  )
  const detail = useActorRef(detailLogic)
  const snapshot = useSelector(detail, (current) => current)
  const open = detailOpen(snapshot)
  /** Opens an inquiry and, for a key or a palette command, makes the move at once with its notes as they are. */
  const act = useCallback(
    (inquiry: AdvertisingInquiry, status?: InquiryStatus) => {
      if (!detailOpen(detail.getSnapshot())) detail.send({ type: "OPEN", inquiry })
      if (status !== undefined) detail.send({ type: "MOVE", status })
    },
    [detail]
  )
  const actions = useMemo(
    (): ReadonlyArray<RowAction<AdvertisingInquiry>> => [
      { id: "advertising:view", key: "Enter", label: (inquiry) => `View ${inquiry.companyName}`, run: (inquiry) => act(inquiry) },
      ...inquiryStatuses
        .filter((status) => status === "contacted" || status === "converted" || status === "rejected")
        .map((status): RowAction<AdvertisingInquiry> => ({
          id: `advertising:move:${status}`,
          ...(status === "contacted" ? { key: "c" } : {}),
          label: (inquiry) => `${t.moves[status] ?? status}: ${inquiry.companyName}`,
          when: (inquiry) => inquiryMoves[inquiry.status].includes(status),
          run: (inquiry) => act(inquiry, status)
        }))
    ],
    [act]
  )
  const screen = useListScreen(spec, { actions, idle: !open })
  const { url, query, list } = screen
  const reload = list.reload
  const shown = snapshot.context.inquiry === null ? null : (screen.rows.find((row) => row._id === snapshot.context.inquiry?._id) ?? null)

  // Another admin changed an inquiry on this page: the list reloads (and an open modal takes the newer copy, below).
  const rowsRef = useRef(screen.rows)
  rowsRef.current = screen.rows
  useChanges((change) => {
    if (change.type === "inquiry.updated" && rowsRef.current.some((row) => row._id === change.entityId)) reload()
  })
  // The list holds a newer copy of the open inquiry: the machine takes it, so a retry names its version.
  // Offered again on every state change: a copy that arrived while a move was on its way is
  // taken once the answer is in.
  useEffect(() => {
    const current = snapshot.context.inquiry
    if (shown !== null && current !== null && shown.version > current.version) detail.send({ type: "REFRESH", inquiry: shown })
  }, [shown, snapshot, detail])

  const commands = useMemo(
    (): ReadonlyArray<Command> => [
      // In the modal the machine decides the moves.
      ...(open && shown !== null
        ? movesFor(snapshot).map((status): Command => ({
            id: `advertising:modal-move:${status}`,
            label: `${t.moves[status] ?? status}: ${shown.companyName}`,
            group: t.title,
            run: () => detail.send({ type: "MOVE", status })
          }))
        : []),
      ...inquiryStatuses.map((status): Command => ({
        id: `advertising:filter:${status}`,
        label: `Show ${t.statuses[status].toLowerCase()} inquiries`,
        group: t.title,
        guard: () => query.filters.status !== status,
        run: () => url.filter("status", status)
      }))
    ],
    [snapshot, shown, query, open, url, detail]
  )
  useRegisterCommands(commands)

  const counts = list.page?.counts
  const done = snapshot.matches("done") ? snapshot.context.done : null
  return (
    <ListScreen
      screen={screen}
      texts={listTextsOf(t)}
      above={
        <CountCards
          label={t.countsLabel}
          cards={(["total", "pending", "contacted", "converted"] as const).map((key) => ({
            key,
            label: t.counts[key],
            value: counts?.[key],
            active: key === "total" ? query.filters.status === undefined : query.filters.status === key,
            onClick: () => url.filter("status", key === "total" ? "" : key)
          }))}
        />
      }
      filters={filters}
      tools={
        <Button variant="soft" onClick={reload}>
          <ReloadIcon /> {t.refresh}
        </Button>
      }
      notices={
        <>
          {done !== null && (
            <div className="inquiry-done" role="status">
              <Text size="2">{t.done(done.status, done.inquiry.companyName)}</Text>
              <Button size="1" variant="ghost" color="gray" onClick={() => detail.send({ type: "DISMISS" })}>
                {t.dismiss}
              </Button>
            </div>
          )}
          {list.pagination !== undefined && !list.firstLoad && (
            <Heading as="h2" size="3" mb="2">
              {t.heading(list.pagination.total)}
            </Heading>
          )}
        </>
      }
      view={{
        cards: {
          label: t.title,
          card: (inquiry) => (
            <div aria-label={inquiry.companyName}>
              <Flex justify="between" align="start" gap="2">
                <Text as="div" weight="bold">
                  {inquiry.companyName}
                </Text>
                <StatusBadge status={inquiry.status} />
              </Flex>
              <Text as="div" size="2">
                {inquiry.contactName} · {inquiry.email}
              </Text>
              <Text as="div" size="1" color="gray" mt="1">
                {[inquiry.industry, inquiry.budget].filter((part) => part !== "").join(" · ")}
              </Text>
              <Text as="div" size="1" color="gray">
                {t.submitted(shortDate(inquiry.createdAt))}
              </Text>
              {inquiry.website !== "" && (
                <Text as="div" size="1">
                  <a href={inquiry.website} target="_blank" rel="noopener noreferrer" tabIndex={-1}>
                    {inquiry.website}
                  </a>
                </Text>
              )}
              {inquiry.adminNotes !== "" && (
                <Text as="div" size="1" color="gray" mt="1" className="inquiry-notes">
                  {t.notesLine(inquiry.adminNotes)}
                </Text>
              )}
              {inquiry.paymentId !== "" && (
                <div className="payment-block">
                  <Text size="2" weight="bold">
                    {t.paymentCompleted}
                  </Text>
                  <Text size="2">
                    {" "}
                    · {t.amount(inquiry.amount)}
                    {t.plan(inquiry.selectedPlan)}
                  </Text>
                </div>
              )}
              <Flex gap="2" mt="3">
                <Button size="1" variant="soft" color="gray" tabIndex={-1} onClick={() => act(inquiry)}>
                  {t.view}
                </Button>
              </Flex>
            </div>
          )
        }
      }}
    >
      <InquiryDetails
        open={open}
        inquiry={snapshot.context.inquiry === null ? null : (shown ?? (snapshot.context.inquiry as unknown as AdvertisingInquiry))}
        notes={snapshot.context.notes}
        updating={snapshot.matches("updating")}
        error={snapshot.matches("failed") ? snapshot.context.error : null}
        issues={snapshot.context.issues}
        moves={movesFor(snapshot)}
        onNotes={(notes) => detail.send({ type: "EDIT", notes })}
        onMove={(status) => detail.send({ type: "MOVE", status })}
        onClose={() => detail.send({ type: "CLOSE" })}
      />
    </ListScreen>
  )
}
