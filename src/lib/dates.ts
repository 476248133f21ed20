import { localDay, localInput } from "../../contract/local-time.ts"

/**
 * The console's short date: the calendar day in the viewer's time zone, written year-month-day
 * (2026-11-23). One form for every member of staff whatever their browser's language, so an
 * 11/12 is never November to one moderator and December to another; and made without `Intl`,
 * whose first use in a page sets up ICU on the first screen's main thread
 * (docs/architecture.md, "First screen").
 */
export const shortDate = (value: string | Date): string => {
  const date = new Date(value)
  return Number.isNaN(date.getTime()) ? "" : localDay(date)
}

/** A stored time as a `datetime-local` input's value (contract/local-time.ts). */
export { localInput as inputDateTime }

/**
 * A stored instant as the console writes a moment: its day and minute in the viewer's time zone
 * (2026-11-23 14:05), the short date's form with the time after it; "" for an unreadable one.
 */
export const localTime = (value: string): string => localInput(value).replace("T", " ")

/** Whether a stored text is an instant (an ISO 8601 date and time with its zone), to be shown as a local time. */
export const isInstant = (value: unknown): value is string =>
  typeof value === "string" && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/u.test(value) && localTime(value) !== ""
