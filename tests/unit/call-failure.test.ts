import { describe, expect, it } from "vitest"
import { failureOf, issuesOf, serverMessageOf } from "../../contract/call-failure.ts"

describe("a failed call, as the machines and forms read it", () => {
  it("keeps only the field issues that name a path and say something", () => {
    const named = { path: "title", message: "Title is required" }
    expect(
      issuesOf({ status: 400, message: "Invalid request", issues: [named, null, "title", { path: 1, message: "x" }, { path: "slug", message: 2 }] })
    ).toEqual([named])
    expect(issuesOf({ status: 400, message: "Invalid request", issues: "title" })).toEqual([])
    expect(issuesOf({ status: 500, message: "boom" })).toEqual([])
    expect(issuesOf(null)).toEqual([])
    expect(issuesOf("Failed to fetch")).toEqual([])
  })

  it("carries the status, the message and the issues, if any", () => {
    const named = { path: "title", message: "Title is required" }
    expect(failureOf({ status: 400, message: "Invalid request", issues: [named] })).toStrictEqual({ status: 400, message: "Invalid request", issues: [named] })
    expect(failureOf({ status: 409, message: "Changed elsewhere", issues: [] })).toStrictEqual({ status: 409, message: "Changed elsewhere" })
    expect(failureOf(new Error("Failed to fetch"))).toStrictEqual({ status: undefined, message: "Failed to fetch" })
    expect(failureOf("offline")).toStrictEqual({ status: undefined, message: "offline" })
    expect(serverMessageOf({ status: 409, message: "Changed elsewhere" })).toBe("Changed elsewhere")
    expect(serverMessageOf(new Error("Failed to fetch"))).toBeNull()
  })
})
