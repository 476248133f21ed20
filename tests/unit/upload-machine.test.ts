import { describe, expect, it } from "vitest"
import { createActor, fromPromise } from "xstate"
import { MAX_IMAGE_BYTES, uploadMessages } from "../spec/texts.ts"
import { uploadFailureText, type UploadEvent, uploadMachine } from "../../machines/upload.ts"
import { uploadTable } from "../spec/machine-tables.ts"
import { actorDone, actorError, expectFullCoverage, runModel } from "../support/model.ts"

const png = { name: "a.png", type: "image/png", size: 2048 }
const svg = { name: "logo.svg", type: "image/svg+xml", size: 300 }
const pdf = { name: "a.pdf", type: "application/pdf", size: 300 }
const huge = { name: "big.jpg", type: "image/jpeg", size: MAX_IMAGE_BYTES + 1 }
const exactly = { name: "max.webp", type: "image/webp", size: MAX_IMAGE_BYTES }

const events = (): ReadonlyArray<UploadEvent | ReturnType<typeof actorDone> | ReturnType<typeof actorError>> => [
  { type: "PICK", file: png },
  { type: "PICK", file: svg },
  { type: "PICK", file: pdf },
  { type: "PICK", file: huge },
  { type: "PICK", file: exactly },
  { type: "PROGRESS", loaded: 512, total: 2048 },
  { type: "PROGRESS", loaded: 2048, total: 2048 },
  { type: "PROGRESS", loaded: 0, total: 0 },
  { type: "CANCEL" },
  { type: "RESET" },
  actorDone("upload", { url: "/uploads/blog/abc.png" }),
  actorError("upload", { status: 413, message: uploadMessages.tooLarge }),
  actorError("upload", { status: undefined, message: "Failed to fetch" }),
  actorError("upload", { status: 500, message: "" })
]

describe("upload machine, model-based", () => {
  it("replays a generated path to every reachable state and covers every transition", async () => {
    const run = await runModel({
      machine: uploadMachine,
      table: uploadTable,
      inputs: [{ type: "blog" }],
      events: () => events(),
      actorIds: ["upload"],
      check: (expected, actual) => {
        expect(actual.value).toEqual(expected.value)
        expect(actual.context).toEqual(expected.context)
        const context = actual.context as { progress: number; url: string | null; error: string | null }
        // The invariants the screen relies on, at every step of every path.
        expect(context.progress).toBeGreaterThanOrEqual(0)
        if (actual.value === "uploading") expect(context.progress).toBeLessThanOrEqual(90)
        if (actual.value === "done") expect(context).toMatchObject({ progress: 100, error: null })
        if (actual.value === "failed") expect(context.error).not.toBeNull()
      }
    })
    expectFullCoverage("upload", run)
  })

  it("words each failure as the spec does", () => {
    expect(uploadFailureText({ status: 413, message: uploadMessages.tooLarge })).toBe("Upload failed: File size must be less than 5MB")
    expect(uploadFailureText({ status: 500, message: "" })).toBe("Upload failed: Upload failed")
    expect(uploadFailureText(new Error(""))).toBe("Upload failed: Unknown error")
    expect(uploadFailureText(new Error("Failed to fetch"))).toBe("Upload failed: Failed to fetch")
  })

  it("holds real progress at 90 until the server answers, then 100", async () => {
    let finish: (value: { url: string }) => void = () => undefined
    const actor = createActor(
      uploadMachine.provide({
        actors: { upload: fromPromise(() => new Promise<{ url: string }>((resolve) => (finish = resolve))) }
      }),
      { input: { type: "blog" } }
    ).start()
    actor.send({ type: "PICK", file: png })
    const seen: Array<number> = []
    for (const loaded of [0, 700, 1400, 2048]) {
      actor.send({ type: "PROGRESS", loaded, total: 2048 })
      seen.push(actor.getSnapshot().context.progress)
    }
    expect(seen).toEqual([0, 34, 68, 90])
    finish({ url: "/uploads/blog/x.png" })
    await new Promise((resolve) => setImmediate(resolve))
    expect(actor.getSnapshot().context).toMatchObject({ progress: 100, url: "/uploads/blog/x.png" })
    actor.send({ type: "PICK", file: svg })
    expect(actor.getSnapshot().context).toMatchObject({ file: svg, error: uploadMessages.notAnImage, url: null })
  })

  it("fails saying so when the console gave it no upload call", async () => {
    const actor = createActor(uploadMachine, { input: { type: "blog" } }).start()
    actor.send({ type: "PICK", file: png })
    await new Promise((resolve) => setImmediate(resolve))
    expect(actor.getSnapshot().value).toBe("failed")
    expect(actor.getSnapshot().context.error).toBe("Upload failed: upload not provided")
  })
})
