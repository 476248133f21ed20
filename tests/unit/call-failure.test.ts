import { describe, expect, it } from "vitest"
import { failureOf, issuesOf, saidWith, serverMessageOf, serverMessageOr, statusOnly } from "../../contract/call-failure.ts"

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

describe("a failure in the screen's words", () => {
  it("adds the server's words when it gave any, and nothing for a bare status", () => {
    expect(saidWith("Failed to create address", { status: 500, message: "Identifier index is being rebuilt" })).toBe(
      "Failed to create address: Identifier index is being rebuilt"
    )
    expect(saidWith("Failed to create address", { status: 500, message: statusOnly(500) })).toBe("Failed to create address")
    expect(saidWith("Failed to create address", { status: 502, message: "" })).toBe("Failed to create address")
    // No answer at all: the network's words say why.
    expect(saidWith("Failed to create address", { status: undefined, message: "Failed to fetch" })).toBe("Failed to create address: Failed to fetch")
  })

  it("counts a bare status as no words of the server's", () => {
    expect(serverMessageOf({ status: 500, message: statusOnly(500) })).toBe(null)
    expect(serverMessageOr({ status: 500, message: statusOnly(500) }, "Failed to create address")).toBe("Failed to create address")
    expect(serverMessageOf({ status: 409, message: "This address was changed by someone else." })).toBe("This address was changed by someone else.")
    expect(serverMessageOf({ status: undefined, message: "Failed to fetch" })).toBe(null)
  })
})
