import type { BrowserContext, Page, Request, Route } from "playwright-core"
import { beforeAll, describe, expect } from "vitest"
import type { EventObject } from "xstate"
import { uploadMachine } from "../../machines/upload.ts"
import { uploadTable } from "../spec/machine-tables.ts"
import { noisePng } from "../support/images.ts"
import { drivesEveryPath, type MachineModel, type ScreenDriver } from "../support/screen-model.ts"
import { product, signedInContext, closeRun, pathHarness } from "../support/machine-screens.ts"

pathHarness()

/**
 * The image upload machine's generated paths, executed on the real screen in Chromium against the real
 * server (docs/testing.md, "Machines"), on the shared harness (tests/support/machine-screens.ts).
 */
describe("image upload: generated paths on the blog editor's featured image", () => {
  const png = { name: "photo.png", type: "image/png", size: 2_000 }
  const text = { name: "notes.txt", type: "text/plain", size: 20 }
  const huge = { name: "huge.png", type: "image/png", size: 6 * 1024 * 1024 }
  const model: MachineModel<typeof uploadMachine> = {
    machine: uploadMachine,
    inputs: [{ type: "blog" }],
    actorIds: ["upload"],
    key: (snapshot) => JSON.stringify(snapshot.value),
    events: () =>
      [
        { type: "PICK", file: png },
        { type: "PICK", file: text },
        { type: "PICK", file: huge },
        { type: "PROGRESS", loaded: 50, total: 100 },
        { type: "CANCEL" },
        { type: "RESET" },
        { type: "xstate.done.actor.upload", output: { url: "/uploads/blog/x.png" } },
        { type: "xstate.error.actor.upload", error: { status: undefined, message: "Network error" } }
      ] as ReadonlyArray<EventObject>
  }

  interface Run {
    readonly context: BrowserContext
    readonly page: Page
    readonly errors: Array<string>
    /** Chromium's network emulation: a slow uplink so an upload can be watched and cancelled, or no network at all. */
    readonly network: (conditions: { readonly offline: boolean; readonly uploadBytesPerSecond: number }) => Promise<void>
    /** Upload requests the page has sent. */
    readonly sent: Array<Request>
    /** An upload held before the server, when the path will have its connection fail. */
    readonly held: Array<Route>
    picked: { readonly name: string; readonly type: string; readonly size: number } | undefined
  }

  /** A 1.9 MB PNG of noise (it does not compress), slow enough to watch over the throttled link. */
  let photo: Buffer
  beforeAll(() => void (photo = Buffer.from(noisePng(700, 700))))

  const urlField = (run: Run) => run.page.getByPlaceholder("https://… or upload a file")
  const progressBar = (run: Run) => run.page.getByRole("progressbar", { name: "Upload progress" })
  const progressOf = async (run: Run) => Number((await progressBar(run).getAttribute("aria-valuenow")) ?? 0)
  const SLOW = { offline: false, uploadBytesPerSecond: 400_000 }
  /** The spec's messages for a refused pick, written out (docs/product-spec.md §5, "Image upload"). */
  const refusal = (file: { readonly type: string; readonly size: number }) =>
    !file.type.startsWith("image/") ? "Please select a valid image file" : file.size > 5 * 1024 * 1024 ? "File size must be less than 5MB" : undefined

  const driver: ScreenDriver<Run> = {
    open: async () => {
      const { context, page, errors } = await signedInContext()
      const cdp = await context.newCDPSession(page)
      await cdp.send("Network.enable")
      const network = async (conditions: { readonly offline: boolean; readonly uploadBytesPerSecond: number }) =>
        void (await cdp.send("Network.emulateNetworkConditions", {
          offline: conditions.offline,
          latency: 0,
          downloadThroughput: -1,
          uploadThroughput: conditions.uploadBytesPerSecond
        }))
      const run: Run = { context, page, errors, network, sent: [], held: [], picked: undefined }
      page.on("request", (request) => void (request.url().endsWith("/api/upload/image") && run.sent.push(request)))
      await page.goto(`${product.server.url}/blog/new`)
      await urlField(run).waitFor()
      await network(SLOW)
      return run
    },
    close: closeRun,
    act: {
      PICK: async (run, event) => {
        const file = (event as unknown as { file: { name: string; type: string; size: number } }).file
        run.picked = file
        const buffer = file === png ? photo : Buffer.alloc(file.size, 0x61)
        await run.page.getByTestId("featured-image-file").setInputFiles({ name: file.name, mimeType: file.type, buffer })
      },
      // The browser reports the bytes sent; a person watches the bar move.
      PROGRESS: async (run) => expect.poll(() => progressOf(run)).toBeGreaterThan(0),
      CANCEL: async (run) => run.page.getByRole("button", { name: "Cancel upload" }).click(),
      RESET: async (run, _event, before) => run.page.getByRole("button", { name: before.value === "done" ? "Remove" : "Dismiss" }).click(),
      "xstate.done.actor.upload": async (run) => {
        await run.network({ offline: false, uploadBytesPerSecond: -1 })
        await progressBar(run).waitFor({ state: "detached" })
        await run.network(SLOW)
      },
      "xstate.error.actor.upload": async (run) => {
        // The connection drops before the server has answered.
        await expect.poll(() => run.held.length).toBeGreaterThan(0)
        await run.held.shift()?.abort("connectionfailed")
        await run.page.unroute("**/api/upload/image")
      }
    },
    arrange: {
      "xstate.error.actor.upload": async (run) => void (await run.page.route("**/api/upload/image", (route) => void run.held.push(route)))
    },
    see: {
      idle: async (run, _snapshot, event) => {
        await progressBar(run).waitFor({ state: "detached" })
        await run.page.getByRole("alert").waitFor({ state: "detached" })
        await run.page.getByRole("button", { name: "Upload", exact: true }).waitFor()
        if (event?.type === "RESET" || event?.type === "CANCEL") expect(await urlField(run).inputValue()).toBe("")
        if (event?.type === "CANCEL") {
          // The request was given up before the server answered it.
          await expect.poll(() => run.sent.at(-1)?.failure()?.errorText).toBe("net::ERR_ABORTED")
        }
      },
      uploading: async (run) => {
        await progressBar(run).waitFor()
        const value = await progressOf(run)
        expect(value).toBeGreaterThanOrEqual(0)
        expect(value).toBeLessThanOrEqual(90)
        expect(await run.page.getByRole("button", { name: "Uploading…" }).isDisabled()).toBe(true)
      },
      done: async (run) => {
        await expect.poll(() => urlField(run).inputValue()).toMatch(/\/uploads\/blog\/[\w-]+\.png$/)
        // The server holds the picture at the URL the field shows.
        const stored = await fetch(await urlField(run).inputValue())
        expect(stored.status).toBe(200)
        expect(stored.headers.get("content-type")).toBe("image/png")
        expect((await stored.arrayBuffer()).byteLength).toBeGreaterThan(0)
      },
      failed: async (run, _snapshot, event) => {
        const expected = event?.type === "PICK" && run.picked !== undefined ? refusal(run.picked) : "Upload failed: Network error"
        await run.page
          .getByRole("alert")
          .getByText(expected ?? "", { exact: true })
          .waitFor()
        await progressBar(run).waitFor({ state: "detached" })
        expect(await urlField(run).inputValue()).toBe("")
        // A refused pick sends nothing.
        if (event?.type === "PICK")
          expect(run.sent.filter((request) => request.failure() === null && request.postDataBuffer()?.length === run.picked?.size)).toEqual([])
      }
    }
  }

  drivesEveryPath("image upload", model, uploadTable, driver)
})
