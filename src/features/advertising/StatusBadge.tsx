import { CheckCircledIcon, ClockIcon, CrossCircledIcon, EnvelopeClosedIcon, EyeOpenIcon, QuestionMarkCircledIcon, StarIcon } from "@radix-ui/react-icons"
import { Badge } from "@radix-ui/themes"
import type { InquiryStatus } from "../../../contract/advertising-rules.ts"
import { advertisingTexts as t } from "./texts.ts"

/** Each status's colour and icon; a status this console does not know gets a neutral one. */
const statusLook: Record<string, { readonly color: "orange" | "violet" | "blue" | "yellow" | "green" | "red" | "gray"; readonly Icon: typeof ClockIcon }> = {
  pending: { color: "orange", Icon: ClockIcon },
  paid: { color: "violet", Icon: StarIcon },
  reviewed: { color: "blue", Icon: EyeOpenIcon },
  contacted: { color: "yellow", Icon: EnvelopeClosedIcon },
  converted: { color: "green", Icon: CheckCircledIcon },
  rejected: { color: "red", Icon: CrossCircledIcon }
}
const neutralLook = { color: "gray", Icon: QuestionMarkCircledIcon } as const

export const StatusBadge = ({ status }: { readonly status: string }) => {
  const { color, Icon } = statusLook[status] ?? neutralLook
  return (
    <Badge highContrast color={color}>
      <Icon aria-hidden /> {t.statuses[status as InquiryStatus] ?? status}
    </Badge>
  )
}
