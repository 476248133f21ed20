import { assign, fromPromise, setup } from "xstate"
import { acceptedImageTypes, MAX_IMAGE_BYTES, uploadMessages, type UploadType } from "../contract/upload-rules.ts"
import { failureOf } from "../contract/call-failure.ts"

/** What the machine needs to know of a picked file (a browser `File` is one). */
export interface PickedFile {
  readonly name: string
  readonly type: string
  readonly size: number
}

export interface UploadContext {
  readonly type: UploadType
  readonly file: PickedFile | null
  /** 0–100: real bytes sent, held at 90 until the server has stored the file, then 100. */
  readonly progress: number
  readonly url: string | null
  /** The text to show: a validation message, or "Upload failed: {message}". */
  readonly error: string | null
}

export type UploadEvent =
  | { readonly type: "PICK"; readonly file: PickedFile }
  | { readonly type: "PROGRESS"; readonly loaded: number; readonly total: number }
  | { readonly type: "CANCEL" }
  | { readonly type: "RESET" }

/** docs/product-spec.md §8: the server's error, else "Upload failed" when it answered, else the thrown message or "Unknown error". */
export const uploadFailureText = (error: unknown): string => {
  const failure = failureOf(error)
  const message = failure.message.trim() !== "" ? failure.message : failure.status === undefined ? uploadMessages.unknown : uploadMessages.failed
  return `Upload failed: ${message}`
}

const HELD_AT = 90

/**
 * docs/product-spec.md §4 "Image upload" as docs/decisions.md changes it: the console checks type and size,
 * sends the file with real byte progress held at 90 % until the server answers, then 100 %.
 */
export const uploadMachine = setup({
  types: {} as { context: UploadContext; events: UploadEvent; input: { readonly type: UploadType } | undefined },
  actors: {
    upload: fromPromise<{ readonly url: string }, { readonly file: PickedFile; readonly type: UploadType }>(() =>
      Promise.reject(new Error("upload not provided"))
    )
  },
  actions: {
    pick: assign({ file: (_, params: { readonly file: PickedFile }) => params.file, progress: 0, url: null, error: null })
  },
  guards: {
    notAnImage: ({ context }) => !(acceptedImageTypes as ReadonlyArray<string>).includes(context.file?.type ?? ""),
    tooLarge: ({ context }) => (context.file?.size ?? 0) > MAX_IMAGE_BYTES
  }
}).createMachine({
  context: ({ input }) => ({ type: input?.type ?? "blog", file: null, progress: 0, url: null, error: null }),
  initial: "idle",
  states: {
    idle: {
      entry: assign({ file: null, progress: 0, url: null, error: null }),
      on: { PICK: { target: "validating", actions: { type: "pick", params: ({ event }) => ({ file: event.file }) } } }
    },
    validating: {
      always: [
        { guard: "notAnImage", target: "failed", actions: assign({ error: uploadMessages.notAnImage }) },
        { guard: "tooLarge", target: "failed", actions: assign({ error: uploadMessages.tooLarge }) },
        { target: "uploading" }
      ]
    },
    uploading: {
      invoke: {
        id: "upload",
        src: "upload",
        input: ({ context }) => ({ file: context.file as PickedFile, type: context.type }),
        onDone: { target: "done", actions: assign({ progress: 100, url: ({ event }) => event.output.url }) },
        onError: { target: "failed", actions: assign({ progress: 0, error: ({ event }) => uploadFailureText(event.error) }) }
      },
      on: {
        PROGRESS: {
          actions: assign({
            progress: ({ context, event }) =>
              event.total > 0 ? Math.max(context.progress, Math.min(HELD_AT, Math.floor((event.loaded / event.total) * 100))) : context.progress
          })
        },
        CANCEL: "idle"
      }
    },
    done: {
      on: { PICK: { target: "validating", actions: { type: "pick", params: ({ event }) => ({ file: event.file }) } }, RESET: "idle" }
    },
    failed: {
      on: { PICK: { target: "validating", actions: { type: "pick", params: ({ event }) => ({ file: event.file }) } }, RESET: "idle" }
    }
  }
})
