/** One server-sent event, with when it arrived (performance.now()). */
export interface StreamEvent {
  readonly id: string
  readonly event: string
  readonly data: unknown
  readonly at: number
}

/**
 * A change stream read as the console reads it: `fetch` with the bearer header, the body parsed
 * as server-sent events as they arrive.
 */
export const openStream = async (base: string, token: string | undefined, lastEventId?: string) => {
  const controller = new AbortController()
  const headers: Record<string, string> = {}
  if (token !== undefined) headers.authorization = `Bearer ${token}`
  if (lastEventId !== undefined) headers["last-event-id"] = lastEventId
  const response = await fetch(`${base}/api/admin/stream`, { headers, signal: controller.signal })
  const events: Array<StreamEvent> = []
  let ended = false
  let buffer = ""
  const waiters = new Set<() => void>()
  const wake = () => {
    for (const waiter of waiters) waiter()
  }
  const reading = (async () => {
    if (response.body === null) return
    const decoder = new TextDecoder()
    try {
      const reader = response.body.getReader()
      for (let read = await reader.read(); !read.done; read = await reader.read()) {
        buffer += decoder.decode(read.value, { stream: true })
        let end: number
        while ((end = buffer.indexOf("\n\n")) >= 0) {
          const block = buffer.slice(0, end)
          buffer = buffer.slice(end + 2)
          const field = (name: string) =>
            block
              .split("\n")
              .find((line) => line.startsWith(`${name}: `))
              ?.slice(name.length + 2)
          const data = field("data")
          if (field("event") !== undefined)
            events.push({ id: field("id") ?? "", event: field("event")!, data: data === undefined ? null : JSON.parse(data), at: performance.now() })
          wake()
        }
      }
    } catch {
      // aborted by the test
    }
    ended = true
    wake()
  })()
  /** Waits until `predicate` holds over the events so far (or the stream ended, when `ends`). */
  const until = (predicate: () => boolean, what: string, ms = 5000) =>
    new Promise<void>((resolve, reject) => {
      const check = () => {
        if (!predicate()) return
        waiters.delete(check)
        clearTimeout(timer)
        resolve()
      }
      const timer = setTimeout(() => {
        waiters.delete(check)
        reject(new Error(`${what}: not within ${ms} ms; events ${JSON.stringify(events)}`))
      }, ms)
      waiters.add(check)
      check()
    })
  return {
    response,
    events,
    ended: () => ended,
    changes: () => events.filter((event) => event.event === "change"),
    ready: () => until(() => events.some((event) => event.event === "ready"), "ready"),
    until,
    close: async () => {
      controller.abort()
      await reading
    }
  }
}
