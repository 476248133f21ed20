import { Text } from "@radix-ui/themes"
import { Link } from "wouter"
import type { ActivityEntry } from "../../contract/activity.ts"
import { colleagueLabel } from "../lib/people.ts"
import { recordHref } from "../lib/record-link.ts"

/** Who did it: a colleague as the console names them, the e-mail a refused sign-in typed, or the public and the server's own jobs. */
export const Actor = ({ entry }: { readonly entry: Pick<ActivityEntry, "actorId" | "actorName" | "actorEmail"> }) =>
  entry.actorId !== null ? (
    <Text>{colleagueLabel({ _id: entry.actorId, name: entry.actorName, email: entry.actorEmail })}</Text>
  ) : entry.actorEmail === null ? (
    <Text color="gray">System or public</Text>
  ) : (
    <Text>{entry.actorEmail}</Text>
  )

/** The record an event is about, linked to where the console shows it. */
export const RecordLink = ({ entry }: { readonly entry: ActivityEntry }) => {
  const href = recordHref(entry)
  const text = entry.record.label ?? (entry.entityId === null ? "—" : `${entry.entityId.slice(0, 8)}…`)
  return href === null ? <Text color="gray">{text}</Text> : <Link href={href}>{text}</Link>
}
