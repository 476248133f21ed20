import { existsSync, readdirSync } from "node:fs"
import { describe, expect, it } from "vitest"

/**
 * Every feature folder is an area as docs/architecture.md ("Areas, end to end") names it: its
 * screens' routes in `routes.tsx`, its sidebar or palette entries in `navigation.ts`, its words in
 * `texts.ts`. The folders below lack a file for the reason given; any other folder must have all three.
 */
const declaredGaps: Readonly<Record<string, ReadonlyArray<string>>> = {
  // The sign-in screen is shown outside the shell: no route among the shell's, no sidebar entry.
  auth: ["routes.tsx", "navigation.ts"],
  // One dialog every screen opens (`h`, "Show history"): no screen of its own.
  history: ["routes.tsx", "navigation.ts"],
  // Reached from the palette and the dashboard; its entry sits in src/lib/destinations.ts, which the settings screen also reads.
  activity: ["navigation.ts", "texts.ts"],
  dashboard: ["texts.ts"],
  // One card of facts (version, theme, health) and links: its few words sit with it.
  settings: ["texts.ts"]
}

const files = ["routes.tsx", "navigation.ts", "texts.ts"] as const

describe("feature folders", () => {
  const folders = readdirSync("src/features", { withFileTypes: true }).filter((entry) => entry.isDirectory())

  it.each(folders.map((folder) => folder.name))("%s has its routes, navigation and texts, or says why not", (name) => {
    const missing = files.filter((file) => !existsSync(`src/features/${name}/${file}`))
    expect(missing).toEqual([...(declaredGaps[name] ?? [])])
  })

  it("declares no gap for a folder that is not there", () => {
    expect(Object.keys(declaredGaps).filter((name) => !folders.some((folder) => folder.name === name))).toEqual([])
  })
})
