import { describe, expect, it } from "vitest"
import { colleagueChoice, colleagueLabel } from "../../src/lib/people.ts"

/** How the console names a colleague whose e-mail it may or may not read (src/lib/people.ts). */
describe("a colleague's name in the console", () => {
  const id = "6f125f61-bf97-4a2f-9bf2-e88ac86c31c9"
  it("is their name, else their e-mail, else the end of their id", () => {
    expect(colleagueLabel({ _id: id, name: "Nadia", email: null })).toBe("Nadia")
    expect(colleagueLabel({ _id: id, name: " ", email: "nadia@example.com" })).toBe("nadia@example.com")
    expect(colleagueLabel({ _id: id, name: null, email: null })).toBe("Admin #c86c31c9")
  })
  it("as a choice, carries the e-mail beside the name when both are known", () => {
    expect(colleagueChoice({ _id: id, name: "Nadia", email: "nadia@example.com" })).toBe("Nadia (nadia@example.com)")
    expect(colleagueChoice({ _id: id, name: "Nadia", email: null })).toBe("Nadia")
    expect(colleagueChoice({ _id: id, name: null, email: null })).toBe("Admin #c86c31c9")
  })
})
