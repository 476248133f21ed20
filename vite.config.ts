/// <reference types="vitest/config" />
import react from "@vitejs/plugin-react"
import { defineConfig, type UserConfig } from "vite"
import { VitePWA } from "vite-plugin-pwa"
import { fileURLToPath } from "node:url"
import { firstScreen, type FirstScreenPiece } from "./tools/first-screen/index.ts"

/**
 * The service worker (docs/decisions.md, "The service worker"): src/app/offline/service-worker.ts,
 * built as a classic script to `dist/service-worker.js` with the list of every built file but
 * index.html (each navigation keeps the page itself). The console registers it itself
 * (src/app/offline/register.ts) and has no web app manifest, so index.html is left as it is.
 */
const serviceWorker = () =>
  VitePWA({
    strategies: "injectManifest",
    srcDir: "src/app/offline",
    filename: "service-worker.ts",
    injectRegister: false,
    manifest: false,
    injectManifest: {
      rollupFormat: "iife",
      globPatterns: ["**/*.{js,css,svg,png,ico,woff2,woff}"],
      globIgnores: ["index.html", "service-worker.js"],
      // The post editor's chunk is past workbox's default 2 MiB bound.
      maximumFileSizeToCacheInBytes: 8 * 1024 * 1024
    }
  })

/**
 * The console's build. `npm run bench -- compare PIECE…` builds it without some of the first
 * screen's pieces (tools/first-screen/index.ts) and measures what each buys.
 */
export const consoleBuild = (without: ReadonlyArray<FirstScreenPiece> = []): UserConfig => ({
  plugins: [react(), ...firstScreen(fileURLToPath(new URL(".", import.meta.url)), without), serviceWorker()],
  build: { outDir: "dist", emptyOutDir: true, sourcemap: false }
})

/**
 * The fault runs, apart from `npm test` as the fuzz and the benchmarks are (`npm run test:faults`,
 * vitest.faults.config.ts; docs/testing.md, "Which command proves what").
 */
export const FAULT_FILES = ["tests/api/faults.test.ts", "tests/api/stalled-server.test.ts", "tests/api/disk-full.test.ts", "tests/api/postgres-disk.test.ts"]

export default defineConfig({
  ...consoleBuild(),
  server: { proxy: { "/api": "http://127.0.0.1:8080", "/uploads": "http://127.0.0.1:8080" } },
  test: {
    include: ["tests/**/*.test.ts"],
    // The two-server test needs nginx: npm run test:cluster (vitest.cluster.config.ts).
    exclude: ["tests/cluster/**", ...FAULT_FILES],
    globalSetup: ["tests/support/global-setup.ts"],
    setupFiles: ["tests/support/property-seed.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // A poll waits as long as a Playwright wait would (not vitest's 1 s): on a loaded CI machine
    // a dialog's closing animation or a page of rows can take longer than a second
    // (docs/testing.md, "How the suite runs").
    expect: { poll: { timeout: 15_000, interval: 50 } },
    pool: "forks",
    // Two files at a time: most of the suite waits on a browser, a server or a timer, so two
    // share the 2-core CI machine well (serial, the suite passed 15 minutes; docs/testing.md).
    maxWorkers: 2,
    // Each worker process runs file after file without starting again: with a fresh process per
    // file, one of the two workers was starting a file for 166 of 500 s (64 of 452 s now;
    // docs/testing.md, "How the suite runs"). What a file sets up is in hooks the file registers; a
    // shared test module never sets a file's state at its import.
    isolate: false,
    reporters: ["default", "./tests/support/summary-reporter.ts"]
  }
})
