import "./triage.css"
import { Text } from "@radix-ui/themes"
import { ListScreen, listTextsOf } from "../../ui/list/ListScreen.tsx"
import { DeskQuestion } from "./DeskQuestion.tsx"
import { TriageCard } from "./TriageCard.tsx"
import { DeskDetail } from "./DeskDetail.tsx"
import { triageTexts as t } from "./texts.ts"
import { useDesk } from "./use-desk.ts"

/**
 * The triage desk (docs/console.md, "The triage desk"): every item waiting for a decision across
 * the areas in one list, oldest first, live. The keys of each item's own screen decide it; `i`
 * assigns it to the person, Shift+I to someone, `s` snoozes it, `m` closes it as a duplicate of
 * another item of its kind. A decision shows at once and the next item is current (one key a
 * decision); `z` undoes the last one and makes its item current again. A priority, an owner or a
 * report back to New keeps the item current (docs/console.md, "The triage desk"); the machine
 * (machines/triage-desk.ts) asks what a key needs first.
 */
export const TriageScreen = () => {
  const { screen, desk, question, item, others, decision, owners, ownerName, said, offer, current, related, relatedCounts } = useDesk()
  const snoozed = screen.query.filters.view === "snoozed"
  return (
    <ListScreen
      screen={screen}
      texts={{ ...listTextsOf(t), empty: snoozed ? t.snoozedEmpty : screen.filtered ? t.emptyFiltered : t.empty }}
      notices={
        <>
          {said !== null && (
            <Text as="p" size="2" role={said.refused === true ? "alert" : "status"} color={said.refused === true ? "red" : undefined} mb="2">
              {said.text}
            </Text>
          )}
          {offer !== null && current !== undefined && offer.ids.has(current._id) && (
            <Text as="p" size="2" role="status" mb="2">
              {t.relatedOpen(offer.count)}
            </Text>
          )}
        </>
      }
      aside={<DeskDetail item={screen.focus.current} related={related} />}
      view={{
        cards: {
          label: t.title,
          card: (row, waiting) => <TriageCard item={row} ownerName={ownerName} waiting={waiting} relatedHere={relatedCounts.get(row._id) ?? 0} />
        }
      }}
    >
      <DeskQuestion
        question={question.question}
        item={item}
        title={decision?.name ?? ""}
        owners={owners}
        others={others}
        onAnswer={(value) => desk.send({ type: "ANSWER", value })}
        onCancel={() => desk.send({ type: "CANCEL" })}
      />
    </ListScreen>
  )
}
