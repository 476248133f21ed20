import { Badge, Button, Flex, Text } from "@radix-ui/themes"
import type { ReactNode } from "react"
import type { ScamReport, ScamReportPriority, ScamReportStatus } from "../../../contract/scam-reports.ts"
import { scamReportPriorities, scamReportStatuses, scamTypeLabels } from "../../../contract/scam-report-rules.ts"
import { shortDate } from "../../lib/dates.ts"
import { priorityColors, scamTexts as t, statusColors } from "./texts.ts"

/** One report as a card: its status and priority dropdowns in the spec's colours (out of the tab order: keys do the same), and Details. */
export const ScamReportCard = ({
  report,
  onSet,
  onDetails,
  waiting
}: {
  /** The report as the screen shows it: the latest copy with this screen's own changes on it. */
  readonly report: ScamReport
  readonly onSet: (change: { field: "status"; value: ScamReportStatus } | { field: "priority"; value: ScamReportPriority }) => void
  readonly onDetails: () => void
  /** What the list says of the report beside its badges: that a change to it waits for the server. */
  readonly waiting?: ReactNode
}) => {
  const title = t.title8(report._id)
  return (
    <div className="scam-card" aria-label={title}>
      <Flex justify="between" align="start" gap="2">
        <Text as="div" weight="bold">
          {title}
        </Text>
        <Flex gap="2" align="center">
          {waiting}
          <Badge color="gray" variant="outline">
            {scamTypeLabels[report.scamType]}
          </Badge>
        </Flex>
      </Flex>
      <Text as="p" size="2" my="2" className="scam-description">
        {report.description}
      </Text>
      {report.walletAddress !== "" && (
        <Text as="div" size="1" className="scam-wallet">
          {t.wallet}: {report.walletAddress}
        </Text>
      )}
      <Text as="div" size="1" color="gray">
        {t.reported(shortDate(report.createdAt))}
      </Text>
      <Flex gap="2" mt="3" wrap="wrap" align="center">
        <select
          className="native-select scam-select"
          data-color={statusColors[report.status]}
          aria-label={t.statusOf(title)}
          tabIndex={-1}
          value={report.status}

          onChange={(event) => onSet({ field: "status", value: event.target.value as ScamReportStatus })}
        >
          {scamReportStatuses.map((value) => (
            <option key={value} value={value}>
              {t.statuses[value]}
            </option>
          ))}
        </select>
        <select
          className="native-select scam-select"
          data-color={priorityColors[report.priority]}
          aria-label={t.priorityOf(title)}
          tabIndex={-1}
          value={report.priority}

          onChange={(event) => onSet({ field: "priority", value: event.target.value as ScamReportPriority })}
        >
          {scamReportPriorities.map((value) => (
            <option key={value} value={value}>
              {t.priorities[value]}
            </option>
          ))}
        </select>
        <Button size="1" variant="soft" color="gray" tabIndex={-1} onClick={onDetails}>
          {t.details}
        </Button>
      </Flex>
    </div>
  )
}
