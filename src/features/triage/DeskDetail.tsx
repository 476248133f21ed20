import { Badge, Card, Flex, Heading, Text } from "@radix-ui/themes"
import { useEffect, useState } from "react"
import type { ScamReport } from "../../../contract/scam-reports.ts"
import type { TriageItem } from "../../../contract/triage.ts"
import { waitingStatuses } from "../../../contract/triage-rules.ts"
import { relatedScamReports } from "../../api/scam-reports.ts"
import { localTime } from "../../lib/dates.ts"
import { LinkedText } from "../../ui/LinkedText.tsx"
import { itemWords } from "./TriageCard.tsx"
import { triageTexts as t } from "./texts.ts"

/** A related report still waits for a decision. */
export const stillOpen = (report: ScamReport) => waitingStatuses["scam-report"].includes(report.status)

/**
 * The reports related to the current item, when it is a report (the same wallet, or an address of
 * its evidence): read when it becomes current, forgotten when another does.
 */
export const useRelated = (item: TriageItem | undefined): ReadonlyArray<ScamReport> => {
  const id = item?.area === "scam-report" ? item._id : undefined
  const [related, setRelated] = useState<{ readonly id: string; readonly reports: ReadonlyArray<ScamReport> } | null>(null)
  useEffect(() => {
    if (id === undefined) return
    let live = true
    relatedScamReports(id).then(
      (reports) => live && setRelated({ id, reports }),
      () => undefined
    )
    return () => {
      live = false
    }
  }, [id])
  return related !== null && related.id === id ? related.reports : []
}

/** The current item beside the desk (a wide screen): what it says in full, its links, and a report's related reports. */
export const DeskDetail = ({ item, related }: { readonly item: TriageItem | undefined; readonly related: ReadonlyArray<ScamReport> }) => {
  if (item === undefined) return <aside aria-label={t.detailLabel} />
  const words = itemWords(item)
  const open = related.filter(stillOpen)
  return (
    <aside aria-label={t.detailLabel}>
      <Card>
        <Flex direction="column" gap="2">
          <Heading as="h2" size="3" className="triage-title">
            {words.title}
          </Heading>
          <Text size="2" className="triage-summary">
            {item.area === "scam-report" || item.area === "listing" ? item.description : words.summary}
          </Text>
          {words.links !== "" && (
            <Text size="2" className="triage-links">
              <LinkedText text={words.links} />
            </Text>
          )}
          <Text size="1" color="gray">
            {t.received(localTime(words.received))}
          </Text>
          {item.area === "scam-report" && (
            <>
              <Heading as="h3" size="2" mt="2">
                {t.related(related.length)}
              </Heading>
              {related.length === 0 ? (
                <Text size="1" color="gray">
                  {t.noRelated}
                </Text>
              ) : (
                <ul className="triage-related">
                  {related.map((report) => (
                    <li key={report._id}>
                      <Text size="1">
                        {report.walletAddress || `#${report._id.slice(-8)}`} · {report.description.slice(0, 80)}{" "}
                      </Text>
                      <Badge color={stillOpen(report) ? "blue" : "gray"}>{report.status}</Badge>
                    </li>
                  ))}
                </ul>
              )}
              {open.length > 0 && (
                <Text size="1" color="gray">
                  {t.selectRelatedHint(open.length)}
                </Text>
              )}
            </>
          )}
        </Flex>
      </Card>
    </aside>
  )
}
