import fc from "fast-check"
import { afterEach, describe, expect, it, vi } from "vitest"
import { localDateTime } from "../../contract/local-time.ts"
import { shortDate } from "../../src/lib/dates.ts"

describe("shortDate", () => {
  afterEach(() => vi.restoreAllMocks())

  it("writes the calendar day in the viewer's time zone as year-month-day", () => {
    expect(shortDate(new Date(2026, 0, 5, 23, 59))).toBe("2026-01-05")
    expect(shortDate(new Date(2026, 10, 23, 0, 0))).toBe("2026-11-23")
    expect(shortDate(new Date(999, 11, 31, 12).toISOString())).toBe("0999-12-31")
  })

  it("agrees with the local date of any instant, given as a Date or its ISO text", () => {
    fc.assert(
      fc.property(fc.date({ min: new Date(1000, 0, 1), max: new Date(9999, 11, 31), noInvalidDate: true }), (date) => {
        const [year, month, day] = shortDate(date.toISOString()).split("-").map(Number)
        expect([year, month, day]).toEqual([date.getFullYear(), date.getMonth() + 1, date.getDate()])
        expect(shortDate(date)).toBe(shortDate(date.toISOString()))
      })
    )
  })

  it("writes nothing for a value that is not a date", () => {
    expect(shortDate("not a date")).toBe("")
  })

  it("makes no Intl formatter (a page's first one costs ~20 ms of ICU set-up: docs/architecture.md)", () => {
    const made = vi.spyOn(Intl, "DateTimeFormat")
    const localized = vi.spyOn(Date.prototype, "toLocaleDateString")
    shortDate("2026-11-23T10:00:00Z")
    expect(made).not.toHaveBeenCalled()
    expect(localized).not.toHaveBeenCalled()
  })

  it("writes a datetime-local value: the local day, hour and minute of any instant", () => {
    expect(localDateTime(new Date(2026, 10, 23, 9, 5, 59))).toBe("2026-11-23T09:05")
    fc.assert(
      fc.property(fc.date({ min: new Date(1000, 0, 1), max: new Date(9999, 11, 31), noInvalidDate: true }), (date) => {
        const [day, time] = localDateTime(date).split("T")
        expect(day).toBe(shortDate(date))
        expect(time?.split(":").map(Number)).toEqual([date.getHours(), date.getMinutes()])
      })
    )
  })
})
