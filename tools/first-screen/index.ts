import type { Plugin } from "vite"
import { answerSchemas } from "./answer-schemas.ts"
import { chunkGroups } from "./chunk-groups.ts"
import { cmdkWithoutDialog } from "./cmdk-without-dialog.ts"
import { pagePreloads } from "./page-preloads.ts"
import { precompress } from "./precompress.ts"
import { radixIconsApart } from "./radix-icons.ts"
import { radixSubset } from "./radix-subset.ts"
import { radixUse } from "./radix-use.ts"
import { themeRootWithoutTooltips } from "./theme-root.ts"

/**
 * The first screens' code, by chunk, each named by its module (the chunk holds it and what it
 * imports statically): start-up's own code beside the entry (the early requests), what every
 * visit needs (React, the router, the machines' runtime, the sign-in form), and what a signed-in
 * visit needs too (the shell and the directories).
 */
const groups = { early: "src/app/start/boot.ts", start: "src/app/start/render.tsx", "signed-in": "src/app/AuthenticatedApp.tsx" }

/** Features whose screens are a chunk of their own, by the path they are served under. */
const screensByPath = { "/blog": "src/features/blog/screens.ts" }

/**
 * The build's pieces that exist for the first screen's bytes and speed (docs/performance.md), by
 * name: `npm run bench -- compare PIECE…` builds the console without one and measures both.
 */
const pieces = (root: string) =>
  ({
    "radix-subset": () => radixSubset(radixUse),
    "theme-root": () => themeRootWithoutTooltips(),
    "radix-icons": () => radixIconsApart(),
    "cmdk-dialog": () => cmdkWithoutDialog(),
    "chunk-groups": () => chunkGroups(groups),
    preloads: () => pagePreloads({ root, start: groups.start, signedIn: groups["signed-in"], byPath: screensByPath }),
    precompress: () => precompress()
  }) as const satisfies Record<string, () => Plugin>

export type FirstScreenPiece = keyof ReturnType<typeof pieces>

export const firstScreenPieces = Object.keys(pieces("")) as ReadonlyArray<FirstScreenPiece>

/**
 * The first screen's build plugins. The answers' schemas are not a piece: without them the first
 * screen would load effect to check its answers (tools/first-screen/answer-schemas.ts).
 */
export const firstScreen = (root: string, without: ReadonlyArray<FirstScreenPiece> = []): Array<Plugin> => [
  answerSchemas(root),
  ...Object.entries(pieces(root))
    .filter(([name]) => !without.includes(name as FirstScreenPiece))
    .map(([, piece]) => piece())
]
