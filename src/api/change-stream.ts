import { paths } from "virtual:answer-schemas"
import type { ChangeEventData } from "../../contract/stream.ts"
import { sessionToken, tokenRefused } from "./session.ts"

/**
 * A change as the stream carries it (contract/stream.ts, ChangeEventData), with its event id:
 * the record's kind, the version the change produced and the record after it (`fields`), so a
 * store holding the version before applies it; anything else reads the record again.
 */
export type Change = ChangeEventData & { readonly id: string }

const isRecord = (value: unknown): value is Readonly<Record<string, unknown>> => typeof value === "object" && value !== null && !Array.isArray(value)

/**
 * A change's data, checked field by field against contract/stream.ts's ChangeEventData (the
 * signed-in screens load no effect before they need it: tools/first-screen/).
 */
const decodeChange = (data: string): ChangeEventData | undefined => {
  try {
    const parsed: unknown = JSON.parse(data)
    if (!isRecord(parsed)) return undefined
    const { type, area, kind, entityId, version, changes, fields } = parsed
    if (typeof type !== "string" || typeof entityId !== "string") return undefined
    return {
      type,
      entityId,
      area: typeof area === "string" ? area : type.slice(0, type.lastIndexOf(".")),
      kind: typeof kind === "string" ? kind : "",
      version: typeof version === "number" && Number.isInteger(version) ? version : null,
      changes: isRecord(changes) ? changes : {},
      fields: isRecord(fields) ? fields : null
    }
  } catch {
    return undefined
  }
}

type Listener = (change: Change) => void

/** A `ready` event's `complete` (contract/stream.ts, ReadyEventData): only an explicit false says the catch-up was cut. */
const isCompleteCatchUp = (data: string): boolean => {
  try {
    const parsed: unknown = JSON.parse(data)
    return !(isRecord(parsed) && parsed.complete === false)
  } catch {
    return true
  }
}

/**
 * The console's one connection to `GET /api/admin/stream` (docs/api.md, "Live changes"), shared
 * by every screen that listens: opened with the first listener, closed with the last. It is read
 * with `fetch` and the bearer header (never a token in the URL), parsed as server-sent events,
 * and reconnected after a drop with `Last-Event-ID`, so the notices missed meanwhile arrive. A
 * 401 means the session ended: the stream stops and the console signs the person out.
 */
class ChangeStream {
  private readonly listeners = new Set<Listener>()
  /**
   * Told each time a connection is live (its catch-up sent), with the position it is at (an event
   * id), and whether the catch-up was all that was missed (a long absence is not: contract/stream.ts).
   */
  readonly readyListeners = new Set<(position: string | undefined, complete: boolean) => void>()
  private controller: AbortController | null = null
  private lastEventId: string | undefined
  private retryMs = 2000
  private failures = 0

  private readonly token: string

  constructor(token: string, after?: string) {
    this.token = token
    this.lastEventId = after
  }

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener)
    if (this.controller === null) this.open()
    return () => {
      this.listeners.delete(listener)
      if (this.listeners.size === 0) this.close()
    }
  }

  private close() {
    this.controller?.abort()
    this.controller = null
    globalThis.removeEventListener?.("offline", this.cut)
  }

  /**
   * The browser says the link is cut: the connection is dropped now, since a cut link can hold it
   * open, silent, long after (a new network, a sleeping laptop), and opened again once the link
   * is back. Its `ready` then says the server answers again: the lists read what they missed.
   */
  private readonly cut = () => {
    const dropped = this.controller
    if (dropped === null) return
    const next = new AbortController()
    this.controller = next
    dropped.abort()
    this.reconnect(next)
  }

  /** A connection is open or being opened. */
  get connected(): boolean {
    return this.controller !== null
  }

  /**
   * The browser's store joins a connection a screen opened before it: the connection starts again
   * from the store's position (else from its own), so the store hears what followed it and the
   * stream's `ready`. A screen's listener may hear a change twice; it reads its rows again.
   */
  rejoin(after: string | undefined) {
    if (after !== undefined) this.lastEventId = after
    if (this.controller === null) return
    this.close()
    this.open()
  }

  private open() {
    const controller = new AbortController()
    this.controller = controller
    globalThis.addEventListener?.("offline", this.cut)
    void this.read(controller).then(
      // A stream the server ended for good (a 401, a 403) is not reopened when the link drops either.
      (again) => (again ? this.reconnect(controller) : globalThis.removeEventListener?.("offline", this.cut)),
      () => this.reconnect(controller)
    )
  }

  private reconnect(controller: AbortController) {
    if (this.controller !== controller || controller.signal.aborted) return
    this.failures += 1
    // After a drop: the server's `retry`, then longer while the server stays away (at most 30 s),
    // or at once when the browser says its link is back.
    const wait = Math.min(30_000, this.retryMs * 2 ** Math.min(4, this.failures - 1))
    const again = () => {
      clearTimeout(timer)
      globalThis.removeEventListener?.("online", back)
      if (this.controller === controller && !controller.signal.aborted) this.open()
    }
    // The link back starts the waits over: a first try that fails as the link settles is tried
    // again after the server's `retry`, not after the longest wait the absence had reached.
    const back = () => {
      this.failures = 0
      again()
    }
    const timer = setTimeout(again, wait)
    globalThis.addEventListener?.("online", back)
  }

  /** Reads one connection to its end; whether to reconnect. */
  private async read(controller: AbortController): Promise<boolean> {
    const headers: Record<string, string> = { authorization: `Bearer ${this.token}`, accept: "text/event-stream" }
    if (this.lastEventId !== undefined) headers["last-event-id"] = this.lastEventId
    const response = await fetch(paths.stream, { headers, signal: controller.signal, cache: "no-store" })
    // A 401: the session ended (revoked elsewhere, timed out): the console forgets it. A 403 (an
    // address the allowed list no longer covers) only stops the stream.
    if (response.status === 401) tokenRefused(this.token)
    if (response.status === 401 || response.status === 403) return false
    if (!response.ok || response.body === null) return true
    const reader = response.body.getReader()
    const decoder = new TextDecoder()
    let buffer = ""
    for (let read = await reader.read(); !read.done; read = await reader.read()) {
      buffer += decoder.decode(read.value, { stream: true })
      let end: number
      while ((end = buffer.indexOf("\n\n")) >= 0) {
        this.dispatch(buffer.slice(0, end))
        buffer = buffer.slice(end + 2)
      }
    }
    return true
  }

  private dispatch(block: string) {
    let id: string | undefined
    let event = "message"
    let data = ""
    for (const line of block.split("\n")) {
      const colon = line.indexOf(":")
      if (colon === 0) continue
      const field = colon < 0 ? line : line.slice(0, colon)
      const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "")
      if (field === "id") id = value
      else if (field === "event") event = value
      else if (field === "data") data += value
      else if (field === "retry" && /^\d+$/.test(value)) this.retryMs = Number(value)
    }
    if (id !== undefined) this.lastEventId = id
    if (event === "ready") {
      this.failures = 0
      const complete = isCompleteCatchUp(data)
      for (const ready of this.readyListeners) ready(id, complete)
    }
    if (event !== "change" || id === undefined) return
    // A change the console can't read is skipped; the next reload shows the truth.
    const decoded = decodeChange(data)
    if (decoded === undefined) return
    const change: Change = { ...decoded, id }
    for (const listener of this.listeners) listener(change)
  }
}

const streams = new Map<string, ChangeStream>()

/** The session's one stream; a first connection resumes after `after` (the browser's store's last event). */
const streamOf = (token: string, after?: string) => {
  let stream = streams.get(token)
  if (stream === undefined) {
    // One session at a time: an old session's stream has no listeners left, so it is closed.
    streams.clear()
    stream = new ChangeStream(token, after)
    streams.set(token, stream)
  }
  return stream
}

/**
 * The browser's store's way in (src/app/client/transport.ts): every change after `after`, and
 * `ready` each time the stream is live again, with its position and whether its catch-up was
 * complete. Returns the way to stop listening.
 */
export const listenToChanges = (
  after: string | undefined,
  onChange: Listener,
  ready: (position: string | undefined, complete: boolean) => void
): (() => void) => {
  const token = sessionToken()
  if (token === undefined) return () => undefined
  const stream = streamOf(token, after)
  const joined = stream.connected
  stream.readyListeners.add(ready)
  const stop = stream.subscribe(onChange)
  if (joined) stream.rejoin(after)
  return () => {
    stream.readyListeners.delete(ready)
    stop()
  }
}
