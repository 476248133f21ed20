import { useEffect, useRef, useState } from "react"
import { type Analytics, listingStatistics } from "../../../contract/activity.ts"
import type { ListingType } from "../../../contract/listing-rules.ts"
import type { ConsoleStore } from "../../lib/store/console-store.ts"

/**
 * The dashboard follows the browser's store (docs/architecture.md, "The browser's store"): a
 * decision made on a queue and not yet answered already moves the pending figures, and keeps
 * moving them after its answer until figures read after it arrive.
 */

/** What one waiting command does to a pending figure. */
interface Move {
  readonly commandId: string
  /** The record moved (a selection's command moves each of its records). */
  readonly id: string
  /** A listing's type, or "scam-report". */
  readonly part: string
  readonly delta: number
}

/** The status each kind's pending figure counts (server/activity/repository.ts). */
const waitingStatus: Readonly<Record<string, string>> = { listing: "pending", "scam-report": "new" }

/** The moves of the commands in the outbox, each from the record as the commands before it leave it. */
export const waitingMoves = (store: Pick<ConsoleStore, "outbox" | "held">): ReadonlyArray<Move> => {
  const statuses = new Map<string, unknown>()
  return store.outbox().flatMap((command) => {
    const counted = waitingStatus[command.kind]
    if (counted === undefined) return []
    return command.recordIds.flatMap((id): ReadonlyArray<Move> => {
      const held = store.held(command.kind, id)
      if (held === undefined) return []
      const key = `${command.kind}\u0000${id}`
      const from = statuses.has(key) ? statuses.get(key) : held.status
      const to = command.effect === null ? null : "status" in command.effect ? command.effect.status : from
      statuses.set(key, to)
      const delta = (to === counted ? 1 : 0) - (from === counted ? 1 : 0)
      const part = command.kind === "listing" ? String(held.type) : command.kind
      return delta === 0 ? [] : [{ commandId: command.commandId, id, part, delta }]
    })
  })
}

const isListingType = (part: string): part is ListingType => part in listingStatistics

/** The figures with the moves on top. */
export const withMoves = (figures: Analytics, moves: ReadonlyArray<Move>): Analytics => {
  if (moves.length === 0) return figures
  const by = (part: string) => moves.reduce((sum, move) => (move.part === part ? sum + move.delta : sum), 0)
  const total = moves.reduce((sum, move) => sum + (move.part === "scam-report" || isListingType(move.part) ? move.delta : 0), 0)
  return {
    ...figures,
    statistics: { ...figures.statistics, pendingReviews: Math.max(0, figures.statistics.pendingReviews + total) },
    pending: {
      ...figures.pending,
      listings: figures.pending.listings.map((part) => ({ ...part, count: Math.max(0, part.count + by(part.type)) })),
      scamReports: Math.max(0, figures.pending.scamReports + by("scam-report"))
    }
  }
}

/**
 * The figures as the person should see them: the server's, with this browser's waiting decisions
 * on top; a decision answered since stays on top until figures asked for after its answer arrive
 * (`askedAt`), so a count never jumps back and forth.
 */
export const useWaitingFigures = (figures: Analytics | null, askedAt: number, store: ConsoleStore | undefined): Analytics | null => {
  const moves = useRef(new Map<string, { readonly move: Move; settledAt: number | null }>())
  const [, refused] = useState(0)
  // A refused decision moved nothing on the server: its move goes at once.
  useEffect(
    () =>
      store?.onRefusal((refusal) => {
        for (const [key, held] of moves.current) if (held.move.commandId === refusal.commandId) moves.current.delete(key)
        refused((count) => count + 1)
      }),
    [store]
  )
  if (store === undefined || figures === null) return figures
  const now = Date.now()
  const waiting = waitingMoves(store)
  const keyOf = (move: Move) => `${move.commandId}\u0000${move.id}`
  const ids = new Set(waiting.map(keyOf))
  for (const move of waiting) moves.current.set(keyOf(move), { move, settledAt: null })
  for (const [id, held] of moves.current) {
    if (ids.has(id)) continue
    held.settledAt ??= now
    if (askedAt > held.settledAt) moves.current.delete(id)
  }
  return withMoves(
    figures,
    [...moves.current.values()].map((held) => held.move)
  )
}
