import { useSelector } from "@xstate/react"
import { useCallback } from "react"
import { fromPromise } from "xstate"
import type { AdvertisingInquiry } from "../../../contract/advertising.ts"
import { detailOpen, type InquiryMove, inquiryMachine, movesFor } from "../../../machines/inquiry.ts"
import { moveInquiry } from "../../api/advertising.ts"
import { inquiryDecision } from "../../kinds/inquiries.ts"
import { answeredOrKept } from "../../lib/store/handle.ts"
import type { ListCommand } from "../../lib/list/use-list-screen.ts"
import { useMachine } from "../../lib/use-machine.ts"
import { advertisingTexts as t } from "./texts.ts"

/**
 * The modal's move, the kind's decision (src/kinds/inquiries.ts) with the notes typed, as a call
 * the machine waits on (docs/architecture.md, "Forms"): shown on the inquiry at once, at the
 * version the store works out past this browser's changes to it still waiting; kept offline, the
 * modal closes.
 */
const move = async (input: InquiryMove, kept: () => void) => {
  const { inquiry, adminNotes } = input
  const [command] = inquiryDecision(input.status)?.commands({ ...inquiry, adminNotes }, { title: inquiry.companyName, reason: "" }) ?? []
  if (command === undefined) throw new Error(`No move of an inquiry to ${input.status}`)
  const { kind, recordIds, effect, label, failed } = command
  return moveInquiry(input, { kind, recordIds, effect, label, failed, quiet: true, fromShown: true, kept })
}

/**
 * The inquiry detail modal's machine (machines/inquiry.ts), whose snapshot decides the modal's
 * buttons and, while it is open, the palette's moves. The list shows the move through the
 * browser's store, with no read of its page.
 */
export const useInquiryDetail = () => {
  const detail = useMachine(() => inquiryMachine.provide({ actors: { update: fromPromise(({ input }) => answeredOrKept((kept) => move(input, kept))) } }))
  const open = useSelector(detail, detailOpen)
  const openId = useSelector(detail, (snapshot) => snapshot.context.inquiry?._id)
  const openName = useSelector(detail, (snapshot) => snapshot.context.inquiry?.companyName ?? "")
  const moves = useSelector(detail, movesFor, (before, after) => before.join() === after.join())
  /** Opens an inquiry's details, the cursor in its notes. */
  const view = useCallback((inquiry: AdvertisingInquiry) => void (detailOpen(detail.getSnapshot()) || detail.send({ type: "OPEN", inquiry })), [detail])
  // In the modal the machine decides the moves.
  const commands = moves.map((status): ListCommand => ({
    id: `advertising:modal-move:${status}`,
    label: `${t.moves[status] ?? status}: ${openName}`,
    evenOpen: true,
    guard: () => open,
    run: () => detail.send({ type: "MOVE", status })
  }))
  return { detail, open, openId, view, commands }
}
