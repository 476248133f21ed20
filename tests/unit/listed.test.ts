import { describe, expect, it } from "vitest"
import { listedBy } from "../../src/lib/list/listed.ts"

/**
 * Whether the store can say a record is in a list (src/lib/list/listed.ts; docs/architecture.md,
 * "The list pattern"): a decision answered then moves the row without a read of the server.
 */
const spec = { filters: { status: ["pending", "approved", "rejected"], featured: ["yes", "no"] }, searches: ["name", "description"] }
const query = (filters: Readonly<Record<string, string>>, more: { search?: string; sort?: string } = {}) => ({ search: "", page: 1, filters, ...more })

describe("a list's membership from the store", () => {
  it("says in or out where each filter set is a field of the record holding one of its values", () => {
    expect(listedBy(spec, query({ status: "pending" }))({ status: "pending" })).toBe(true)
    expect(listedBy(spec, query({ status: "pending" }))({ status: "approved" })).toBe(false)
    expect(listedBy(spec, query({}))({ status: "approved" })).toBe(true)
  })

  it("leaves it to the server for a filter no field holds, a value not the filter's, or a sort the change moved", () => {
    // The featured filter says yes/no; the record holds a boolean.
    expect(listedBy(spec, query({ featured: "yes" }))({ featured: true })).toBeUndefined()
    expect(listedBy(spec, query({ status: "pending" }))({})).toBeUndefined()
    expect(listedBy(spec, query({ when: "past" }))({ status: "pending" })).toBeUndefined()
    expect(listedBy(spec, query({}, { sort: "name" }))({ name: "B" }, { name: "A" })).toBeUndefined()
    expect(listedBy(spec, query({}, { sort: "name" }))({ name: "A", status: "x" }, { name: "A" })).toBe(true)
  })
})

describe("a list's membership under a search", () => {
  const searched = listedBy(spec, query({ status: "pending" }, { search: "pi" }))
  const read = { _id: "a", name: "Pi Club", description: "A club", status: "pending", version: 3, moderationNotes: "" }

  it("keeps the search's word for a row read under it whose searched fields did not change: a decision moves it out", () => {
    expect(searched({ ...read, status: "approved", version: 4, moderationNotes: "Spam" }, read)).toBe(false)
    expect(searched({ ...read, version: 4 }, read)).toBe(true)
  })

  it("asks the server for a row whose searched fields changed, one it never read under the search, or a list that does not say what it searches", () => {
    expect(searched({ ...read, name: "Pi Hub", version: 4 }, read)).toBeUndefined()
    expect(searched({ ...read, description: "Gone", version: 4 }, read)).toBeUndefined()
    expect(searched(read)).toBeUndefined()
    expect(listedBy({ filters: spec.filters }, query({}, { search: "pi" }))(read, read)).toBeUndefined()
  })
})
