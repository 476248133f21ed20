import { localDay, localInput } from "../../machines/local-time.ts"

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

/** A stored time as a `datetime-local` input's value (machines/local-time.ts). */
export { localInput as inputDateTime }
