import { describe, expect, it } from "vitest"
import { ranked } from "../../src/app/palette.tsx"
import type { Command } from "../../src/lib/commands.tsx"

const command = (id: string, label: string, group: string, extra: Partial<Command> = {}): Command => ({ id, label, group, run: () => undefined, ...extra })

describe("the palette's order", () => {
  // Registered as the console does: the shell's first, the screen's after.
  const commands = [
    command("navigate:/scam-reports", "Go to Scam Reports", "Navigation"),
    command("Triage:area:scam-report", "Show scam reports on the desk", "Triage"),
    command("Triage:reject", "Reject: Pi Lagos", "Triage", { onCurrent: true })
  ]

  it("puts what the screen does before going to another screen, at an equal match", () => {
    expect(ranked(commands, "scam").map((one) => one.label)).toEqual(["Show scam reports on the desk", "Go to Scam Reports"])
  })

  it("keeps a better match first, and what acts on the current row first among equals", () => {
    expect(ranked(commands, "go to scam").map((one) => one.label)).toEqual(["Go to Scam Reports"])
    // Nothing typed: the row's command first, then the registered order.
    expect(ranked(commands, "").map((one) => one.label)).toEqual(["Reject: Pi Lagos", "Go to Scam Reports", "Show scam reports on the desk"])
  })
})
