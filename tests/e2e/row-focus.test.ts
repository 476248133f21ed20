import type { Page } from "playwright-core"
import { beforeAll, describe, expect } from "vitest"
import { rowFocusMachine } from "../../machines/row-focus.ts"
import { rowFocusTable } from "../spec/machine-tables.ts"
import { chromiumWithServer, openSignedIn } from "../support/browser.ts"
import { call } from "../support/http.ts"
import { drivesEveryPath, type MachineModel, type MachineSnapshot, type ScreenDriver } from "../support/screen-model.ts"
import { signedInAs } from "../support/session.ts"

/**
 * The row focus machine's generated paths (docs/architecture.md, "Keys on a list"), driven on a
 * real directory: 25 addresses sorted by identifier, its first page (01–20), a narrower list
 * (10–19) and an empty one, each reached as a link reaches them (the rows change under the
 * keyboard, wherever it is). Every step is a key, a click or a link; every state is checked by
 * which row is marked current and where the focus is.
 */
const product = chromiumWithServer()
let token: string
let counter = 0

beforeAll(async () => {
  token = await signedInAs(product.server, "admin")
})

const number = (index: number) => String(index).padStart(2, "0")
const lists = {
  full: Array.from({ length: 20 }, (_, index) => number(index + 1)),
  narrow: Array.from({ length: 10 }, (_, index) => number(index + 10)),
  empty: [] as ReadonlyArray<string>
} as const
type ListName = keyof typeof lists
const nameOf = (ids: ReadonlyArray<string>): ListName => (ids.length === 20 ? "full" : ids.length === 10 ? "narrow" : "empty")

const contextOf = (snapshot: MachineSnapshot) => snapshot.context as { ids: ReadonlyArray<string>; currentId: string | null; before: string }
const stateOf = (snapshot: MachineSnapshot) => (snapshot.value === "away" ? "away" : (snapshot.value as { keys: string }).keys)

const model: MachineModel<typeof rowFocusMachine> = {
  machine: rowFocusMachine,
  inputs: [{ currentId: null }],
  actorIds: [],
  // Which row is current matters by its place (none, the first, the last, one between), not by
  // its name: the paths then stay few, and every edge (the first row's k, the last's j) is walked.
  key: (snapshot) => {
    const context = contextOf(snapshot)
    const index = context.currentId === null ? -1 : context.ids.indexOf(context.currentId)
    const place = context.currentId === null ? "none" : index < 0 ? "hidden" : index === 0 ? "first" : index === context.ids.length - 1 ? "last" : "between"
    return JSON.stringify([snapshot.value, context.before, place, nameOf(context.ids)])
  },
  // What a person can do in each state: nothing but the list arriving before it is shown; no row
  // can be clicked behind a dialog; keys typed in the search are typing, not moves.
  events: (snapshot) => {
    const context = contextOf(snapshot)
    const state = stateOf(snapshot)
    const shows = (Object.keys(lists) as ReadonlyArray<ListName>)
      .filter((name) => name !== nameOf(context.ids))
      .map((name) => ({ type: "SHOW", ids: lists[name] }))
    if (context.ids.length === 0 && context.currentId === null && state === "rows") return [{ type: "SHOW", ids: lists.full }]
    const pick = context.ids.includes("15") && state !== "away" ? [{ type: "PICK", id: "15" }] : []
    if (state === "rows")
      return [...shows, ...pick, { type: "NEXT" }, { type: "PREVIOUS" }, { type: "TYPE" }, ...(context.ids.length > 0 ? [{ type: "OPEN" }] : [])]
    if (state === "typing") return [...shows, ...pick, { type: "LEAVE" }, { type: "OPEN" }]
    return [...shows, { type: "CLOSE" }]
  }
}

interface Run {
  readonly page: Page
  readonly errors: Array<string>
  readonly prefix: string
}

const path = "/generated-addresses"
const urlOf = (run: Run, list: ListName) =>
  `${path}?search=${encodeURIComponent(list === "full" ? run.prefix : list === "narrow" ? `${run.prefix}1` : `${run.prefix}x`)}&sort=identifier&order=asc`
const shownIdentifiers = (run: Run) =>
  // By CSS, not by role: behind an open dialog the table is hidden from the accessibility tree.
  run.page.locator("table tbody tr[data-current]").evaluateAll((rows) => rows.map((row) => row.querySelector("td")?.textContent ?? ""))
const currentIdentifier = (run: Run) => run.page.evaluate(() => document.querySelector("tbody tr[data-current='true'] td")?.textContent ?? null)
const focusedIdentifier = (run: Run) => run.page.evaluate(() => document.activeElement?.closest("tr")?.querySelector("td")?.textContent ?? null)
const focusIsIn = (run: Run) =>
  run.page.evaluate(() => {
    const active = document.activeElement
    if (active?.closest("[role=dialog], dialog[open]") != null) return "dialog"
    if (active instanceof HTMLInputElement && active.type === "search") return "search"
    if (active?.closest("tbody tr") != null) return "row"
    return active?.tagName ?? "none"
  })

/** Checks the rows a person sees and which one is current; `where` is where the focus must be. */
const seeRows = async (run: Run, snapshot: MachineSnapshot, where: "row" | "search" | "dialog", event: unknown) => {
  const context = contextOf(snapshot)
  // Before any step the machine has not heard of the rows yet; the screen is still arriving.
  if (event === undefined) return void (await run.page.getByRole("table", { name: "Generated Addresses" }).waitFor())
  const expected = context.ids.map((id) => `${run.prefix}${id}`)
  await expect.poll(() => shownIdentifiers(run)).toEqual(expected)
  const marked = context.currentId !== null && context.ids.includes(context.currentId)
  await expect.poll(() => currentIdentifier(run)).toBe(marked ? `${run.prefix}${context.currentId}` : null)
  if (where === "row" && !marked) return
  await expect.poll(() => focusIsIn(run)).toBe(where)
  if (where === "row") expect(await focusedIdentifier(run)).toBe(`${run.prefix}${context.currentId}`)
}

const driver: ScreenDriver<Run> = {
  open: async () => {
    const prefix = `row-focus-${++counter}-`
    for (let index = 1; index <= 25; index++) {
      const made = await call(product.server.url, "POST", "/api/admin/addresses/generated", {
        token,
        body: { identifier: `${prefix}${number(index)}`, Name: `Row ${index}` }
      })
      expect(made.status).toBe(200)
    }
    const run = { prefix, page: undefined as unknown as Page, errors: [] as Array<string> }
    const opened = await openSignedIn(product, token, `${path}?search=${encodeURIComponent(prefix)}&sort=identifier&order=asc`)
    return { ...run, page: opened.page, errors: opened.errors }
  },
  close: async (run) => {
    expect(run.errors).toEqual([])
    await run.page.context().close()
  },
  act: {
    // A link to the same screen with another list: the rows change wherever the keyboard is.
    SHOW: async (run, event) => {
      const to = urlOf(run, nameOf((event as unknown as { ids: ReadonlyArray<string> }).ids))
      if (await run.page.evaluate((url) => `${location.pathname}${location.search}` === url, to)) return
      await run.page.evaluate((url) => history.pushState(null, "", url), to)
    },
    NEXT: async (run) => run.page.keyboard.press("j"),
    PREVIOUS: async (run) => run.page.keyboard.press("k"),
    PICK: async (run) =>
      run.page
        .getByRole("row")
        .filter({ hasText: `${run.prefix}15` })
        .locator("td")
        .first()
        .click(),
    TYPE: async (run) => run.page.keyboard.press("s"),
    LEAVE: async (run) => run.page.keyboard.press("Escape"),
    // From the rows, Enter opens the current address; from the search, Ctrl+K opens the palette.
    OPEN: async (run, _event, before) => run.page.keyboard.press(stateOf(before) === "typing" ? "Control+k" : "Enter"),
    CLOSE: async (run) => run.page.keyboard.press("Escape")
  },
  see: {
    "keys.rows": (run, snapshot, event) => seeRows(run, snapshot, "row", event),
    "keys.typing": (run, snapshot, event) => seeRows(run, snapshot, "search", event),
    away: (run, snapshot, event) => seeRows(run, snapshot, "dialog", event)
  }
}

describe("row focus: generated paths on a directory's rows", () => {
  drivesEveryPath("row focus", model, rowFocusTable, driver)
})
