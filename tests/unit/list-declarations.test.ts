import { describe, expect, it } from "vitest"
import { countsOf, extended, filterOf, keyLabel, keysHint, selectable, type Selection, toggled } from "../../src/lib/list/declarations.ts"

/** The list piece's declarations (src/lib/list/declarations.ts), as data in and commands, cards, hint and selection out. */
const none: Selection = { ids: new Set(), anchor: null }

describe("a filter's commands", () => {
  const status = filterOf("status", "Status", "All statuses", ["draft", "published"] as const, (value) => (value === "draft" ? "Draft" : "Published"), {
    show: (label) => `Show ${label.toLowerCase()} posts`,
    all: "Show all posts"
  })
  const made = (now: Readonly<Record<string, string>>) => {
    const set: Array<[string, string]> = []
    const commands = status.commands?.("Blog", now, (name, value) => void set.push([name, value])) ?? []
    return { commands, set }
  }

  it("says each value in the screen's words and offers those not in force, and all while one is", () => {
    const { commands } = made({ status: "draft" })
    expect(commands.map((command) => command.label)).toEqual(["Show draft posts", "Show published posts", "Show all posts"])
    expect(commands.map((command) => command.guard?.() ?? true)).toEqual([false, true, true])
    expect(made({}).commands.map((command) => command.guard?.() ?? true)).toEqual([true, true, false])
    expect(commands.every((command) => command.group === "Blog")).toBe(true)
  })

  it("sets the filter it names, and clears it", () => {
    const { commands, set } = made({ status: "draft" })
    for (const command of commands) command.run()
    expect(set).toEqual([
      ["status", "draft"],
      ["status", "published"],
      ["status", ""]
    ])
  })

  it("a filter given no words has no commands", () => {
    expect(filterOf("industry", "Industry", "All", ["a", "b"]).commands).toBeUndefined()
  })
})

describe("count cards", () => {
  const counts = countsOf({
    label: "Listings by status",
    filter: "status",
    total: "Total",
    cards: [
      ["pending", "Pending"],
      ["approved", "Approved"]
    ],
    of: (page: { readonly counts: Readonly<Record<string, number>> }) => page.counts,
    commands: { show: (label) => `Show ${label.toLowerCase()} communities` }
  })

  it("shows the total then each value, unknown before the first page, the one in force pressed", () => {
    const set: Array<[string, string]> = []
    const cards = counts.cards({ counts: { total: 7, pending: 4, approved: 3 } }, { status: "pending" }, (name, value) => void set.push([name, value]))
    expect(cards.map((card) => [card.label, card.value, card.active])).toEqual([
      ["Total", 7, false],
      ["Pending", 4, true],
      ["Approved", 3, false]
    ])
    for (const card of cards) card.onClick()
    expect(set).toEqual([
      ["status", ""],
      ["status", "pending"],
      ["status", "approved"]
    ])
    expect(counts.cards(undefined, {}, () => undefined).map((card) => [card.value, card.active])).toEqual([
      [undefined, true],
      [undefined, false],
      [undefined, false]
    ])
  })

  it("gives the palette its cards' commands when told their words", () => {
    expect(counts.commands?.("Community Management", {}, () => undefined).map((command) => command.label)).toEqual([
      "Show pending communities",
      "Show approved communities"
    ])
  })
})

describe("the keys' line", () => {
  it("names every key it is given, with what it does", () => {
    const keys = [
      { key: "Enter", hint: "edit" },
      { key: "e", hint: "edit" },
      { key: "Delete", hint: "remove" },
      { key: "1", hint: "set the status" },
      { key: "2", hint: "set the status" },
      { key: "3", hint: "set the status" },
      { key: "shift+1", hint: "set the priority" },
      { key: "shift+2", hint: "set the priority" },
      { key: "shift+3", hint: "set the priority" },
      { key: "x", hint: "select" },
      { key: "J", hint: "extend the selection" },
      { key: "K", hint: "extend the selection" },
      { key: "n", hint: "new post" },
      { key: "s", hint: "search" }
    ]
    expect(keysHint(keys)).toBe(
      "j/k or ↑/↓ move · Enter or e edit · Delete remove · 1–3 set the status · Shift+1–3 set the priority · x select · Shift+J/K extend the selection · n new post · s search"
    )
  })

  it("writes each key so a person can press it", () => {
    expect([keyLabel("shift+4"), keyLabel("J"), keyLabel("ArrowDown"), keyLabel("Delete"), keyLabel("z")]).toEqual(["Shift+4", "Shift+J", "↓", "Delete", "z"])
    // Two digits are not a range; a key given twice is said once.
    expect(
      keysHint([
        { key: "1", hint: "one" },
        { key: "3", hint: "one" },
        { key: "Delete", hint: "two" },
        { key: "Delete", hint: "two" }
      ])
    ).toBe("j/k or ↑/↓ move · 1/3 one · Delete two")
  })
})

describe("the selection", () => {
  const ids = ["a", "b", "c", "d", "e"]

  it("x puts a row in and takes it out, anchoring there", () => {
    const one = toggled(none, "b")
    expect([...one.ids]).toEqual(["b"])
    expect(one.anchor).toBe("b")
    expect([...toggled(one, "b").ids]).toEqual([])
  })

  it("Shift+J/K select from the anchor to the row moved to, which becomes current", () => {
    const down = extended(toggled(none, "b"), ids, "b", 1)
    expect([...down.selection.ids]).toEqual(["b", "c"])
    expect(down.to).toBe("c")
    const further = extended(down.selection, ids, "c", 1)
    expect([...further.selection.ids]).toEqual(["b", "c", "d"])
    const back = extended(further.selection, ids, "d", -3)
    expect([...back.selection.ids]).toEqual(["a", "b"])
    expect(back.to).toBe("a")
  })

  it("holds the anchor by record: rows that moved under it keep the range to it", () => {
    const anchored = toggled(none, "c")
    const moved = extended(anchored, ["c", "d", "e"], "c", 1)
    expect([...moved.selection.ids]).toEqual(["c", "d"])
    // Without an anchor on screen, the range starts at the row the key acts on.
    expect([...extended({ ids: new Set(), anchor: "gone" }, ids, "d", 1).selection.ids]).toEqual(["d", "e"])
    // At the last row, it stays there.
    expect(extended(none, ids, "e", 1).to).toBe("e")
  })

  it("gives a list its keys, their hint, the rows selected and Escape to clear", () => {
    const changes: Array<Selection> = []
    const picked: Array<string> = []
    const view = selectable({
      selection: { ids: new Set(["b", "c"]), anchor: "b" },
      set: (change) => void changes.push(change({ ids: new Set(["b", "c"]), anchor: "b" })),
      rows: ids,
      idOf: (id) => id,
      pick: (id) => void picked.push(id),
      group: "Core Team Contacts"
    })
    expect(view.rows).toEqual(["b", "c"])
    expect(view.words.selected).toBe("2 selected")
    expect(view.actions.map((action) => action.key)).toEqual(["x", "J", "K"])
    expect(view.actions[0]?.label("b")).toBe("Unselect")
    expect(view.actions[0]?.label("d")).toBe("Select")
    expect(view.keys.map((key) => key.key)).toEqual(["x", "J", "K", "Escape"])
    view.actions[1]?.run("c")
    expect(picked).toEqual(["d"])
    expect([...(changes[0]?.ids ?? [])]).toEqual(["b", "c", "d"])
    expect(view.commands.map((command) => command.shortcut)).toEqual([["Escape"]])
    view.commands[0]?.run()
    expect([...(changes[1]?.ids ?? ["not cleared"])]).toEqual([])
  })
})
