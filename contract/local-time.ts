const digits = (value: number, width: number) => String(value).padStart(width, "0")

/**
 * The calendar day of `date` in the viewer's time zone, year-month-day (2026-11-23). Written
 * without `Intl`, whose first use in a page sets up ICU (docs/architecture.md, "First screen").
 */
export const localDay = (date: Date): string => `${digits(date.getFullYear(), 4)}-${digits(date.getMonth() + 1, 2)}-${digits(date.getDate(), 2)}`

/** `date` as a `datetime-local` input shows it: the viewer's time zone, to the minute (2026-11-23T09:05). */
export const localDateTime = (date: Date): string => `${localDay(date)}T${digits(date.getHours(), 2)}:${digits(date.getMinutes(), 2)}`

/** A stored instant as a `datetime-local` input's value, in the viewer's time zone ("" for none or an unreadable one). */
export const localInput = (iso: string | null | undefined): string => {
  if (iso === null || iso === undefined || iso === "") return ""
  const date = new Date(iso)
  return Number.isNaN(date.getTime()) ? "" : localDateTime(date)
}
