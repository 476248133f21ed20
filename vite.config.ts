/// <reference types="vitest/config" />
import react from "@vitejs/plugin-react"
import { defineConfig } from "vite"
import { fileURLToPath } from "node:url"
import { answerSchemas } from "./tools/vite-answer-checks.ts"
import { earlyStart } from "./tools/vite-early-start.ts"
import { precompress } from "./tools/vite-precompress.ts"
import { radixIconsApart } from "./tools/vite-radix-icons.ts"
import { radixSubset } from "./tools/vite-radix-subset.ts"
import { themeRootWithoutTooltips } from "./tools/vite-radix-theme-root.ts"
import { radixUse } from "./tools/radix-use.ts"
import { TOKEN_KEY } from "./src/lib/token.ts"

/**
 * The build's speed pieces by name. `CONSOLE_WITHOUT=piece,piece` builds without them, for
 * `npm run bench -- compare piece` (interleaved cold loads with and without; docs/architecture.md,
 * "What each speed piece buys").
 */
const without = new Set((process.env.CONSOLE_WITHOUT ?? "").split(",").filter((name) => name !== ""))
const pieces = {
  "radix-subset": () => radixSubset(radixUse),
  "theme-root": () => themeRootWithoutTooltips(),
  "radix-icons": () => radixIconsApart(),
  "early-start": () =>
    earlyStart({
      always: ["src/app/render.tsx"],
      signedIn: ["src/app/AuthenticatedApp.tsx"],
      byPath: { "/blog": "src/features/blog/screens.ts" },
      tokenKey: TOKEN_KEY,
      mergeChunks: !without.has("chunk-merge")
    }),
  precompress: () => precompress()
} as const
/**
 * Pieces of start-up code in src/, left out by a constant the build folds away: `early-requests`
 * (src/app/boot.ts: the session check and the first page asked for before the screens' code
 * has loaded).
 */
const runtimePieces = { "early-requests": "__EARLY_REQUESTS__" } as const
const known = [...Object.keys(pieces), "chunk-merge", ...Object.keys(runtimePieces)]
const unknownPieces = [...without].filter((name) => !known.includes(name))
if (unknownPieces.length > 0) throw new Error(`CONSOLE_WITHOUT: no piece named ${unknownPieces.join(", ")} (pieces: ${known.join(", ")})`)

export default defineConfig({
  plugins: [
    react(),
    answerSchemas(fileURLToPath(new URL(".", import.meta.url))),
    ...Object.entries(pieces)
      .filter(([name]) => !without.has(name))
      .map(([, piece]) => piece())
  ],
  define: Object.fromEntries(Object.entries(runtimePieces).map(([name, constant]) => [constant, JSON.stringify(!without.has(name))])),
  build: { outDir: "dist", emptyOutDir: true, sourcemap: false },
  server: { proxy: { "/api": "http://127.0.0.1:8080", "/uploads": "http://127.0.0.1:8080" } },
  test: {
    include: ["tests/**/*.test.ts"],
    // The two-server test needs nginx: npm run test:cluster (vitest.cluster.config.ts).
    exclude: ["tests/cluster/**"],
    globalSetup: ["tests/support/global-setup.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // A poll waits as long as a Playwright wait would (not vitest's 1 s): on a loaded CI machine
    // a dialog's closing animation or a page of rows can take longer than a second
    // (docs/testing.md, "Running time").
    expect: { poll: { timeout: 15_000, interval: 50 } },
    pool: "forks",
    // Two files at a time: most of the suite waits on a browser, a server or a timer, so two
    // share the 2-core CI machine well (serial, the suite passed 15 minutes; docs/testing.md).
    maxWorkers: 2,
    // Each worker process runs file after file without starting again: with a fresh process per
    // file, one of the two workers was starting a file for 166 of 500 s (64 of 452 s now;
    // docs/testing.md, "Running time"). What a file sets up is in hooks the file registers; a
    // shared test module never sets a file's state at its import.
    isolate: false,
    reporters: ["default", "./tests/support/summary-reporter.ts"]
  }
})
