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

export default defineConfig({
  plugins: [
    react(),
    answerSchemas(fileURLToPath(new URL(".", import.meta.url))),
    radixSubset(radixUse),
    themeRootWithoutTooltips(),
    radixIconsApart(),
    earlyStart({ always: ["src/app/render.tsx"], signedIn: ["src/app/AuthenticatedApp.tsx"],
      byPath: { "/blog": "src/features/blog/screens.ts" },
      tokenKey: TOKEN_KEY }),
    precompress()
  ],
  build: { outDir: "dist", emptyOutDir: true, sourcemap: false },
  server: { proxy: { "/api": "http://127.0.0.1:8080", "/uploads": "http://127.0.0.1:8080" } },
  test: {
    include: ["tests/**/*.test.ts"],
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
    reporters: ["default", "./tests/support/summary-reporter.ts"]
  }
})
