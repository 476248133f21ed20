/**
 * The rules of an event's or a hackathon's dates, without the schema library, so the contract
 * (and through it the server) and the console's form apply the same ones.
 */

export const eventMessages = {
  // Said after the field's label, as the contract's messages are: "Ends must be at or after Starts".
  endsBeforeStart: "must be at or after Starts"
} as const

/** Whether `endsAt` comes before `startsAt`, both given (an empty date is no date). */
export const endsBeforeStart = (dates: { readonly startsAt?: string | undefined; readonly endsAt?: string | undefined }): boolean => {
  if (dates.startsAt === undefined || dates.endsAt === undefined || dates.startsAt === "" || dates.endsAt === "") return false
  return Date.parse(dates.endsAt) < Date.parse(dates.startsAt)
}
