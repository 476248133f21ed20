import { useSelector } from "@xstate/react"
import { useCallback } from "react"
import { fromPromise } from "xstate"
import type { AdvertisingInquiry } from "../../../contract/advertising.ts"
import type { InquiryStatus } from "../../../contract/advertising-rules.ts"
import { detailOpen, type InquiryMove, inquiryMachine, inquiryTexts, movesFor } from "../../../machines/inquiry.ts"
import { INQUIRY_KIND, moveInquiry } from "../../api/advertising.ts"
import { answeredOrKept } from "../../lib/store/handle.ts"
import type { ListCommand } from "../../lib/list/use-list-screen.ts"
import { useMachine } from "../../lib/use-machine.ts"
import { useStableCallback } from "../../lib/use-stable.ts"
import { advertisingTexts as t } from "./texts.ts"

/**
 * A move as a command (docs/architecture.md, "Forms"): shown on the inquiry at once, at the version
 * the store works out past this browser's changes to it still waiting; kept offline, the modal closes.
 */
const move = (input: InquiryMove, kept: () => void) => {
  const { inquiry, status, adminNotes } = input
  return moveInquiry(input, {
    kind: INQUIRY_KIND,
    recordIds: [inquiry._id],
    effect: { status, adminNotes },
    label: `${t.moves[status] ?? status}: ${inquiry.companyName}`,
    failed: inquiryTexts.failed,
    quiet: true,
    fromShown: true,
    kept
  })
}

/**
 * The inquiry detail modal's machine (machines/inquiry.ts), whose snapshot decides the modal's
 * buttons, `c` and the palette's moves; the list reloads after a move (`reload`).
 */
export const useInquiryDetail = (reload: () => void) => {
  const listChanged = useStableCallback(reload)
  const detail = useMachine(() =>
    inquiryMachine.provide({ actors: { update: fromPromise(({ input }) => answeredOrKept((kept) => move(input, kept))) }, actions: { listChanged } })
  )
  const open = useSelector(detail, detailOpen)
  const openId = useSelector(detail, (snapshot) => snapshot.context.inquiry?._id)
  const openName = useSelector(detail, (snapshot) => snapshot.context.inquiry?.companyName ?? "")
  const moves = useSelector(detail, movesFor, (before, after) => before.join() === after.join())
  /** Opens an inquiry and, for a key or a palette command, makes the move at once with its notes as they are. */
  const act = useCallback(
    (inquiry: AdvertisingInquiry, status?: InquiryStatus) => {
      if (!detailOpen(detail.getSnapshot())) detail.send({ type: "OPEN", inquiry })
      if (status !== undefined) detail.send({ type: "MOVE", status })
    },
    [detail]
  )
  // In the modal the machine decides the moves.
  const commands = moves.map((status): ListCommand => ({
    id: `advertising:modal-move:${status}`,
    label: `${t.moves[status] ?? status}: ${openName}`,
    evenOpen: true,
    guard: () => open,
    run: () => detail.send({ type: "MOVE", status })
  }))
  return { detail, open, openId, act, commands }
}
