import { connect } from "node:net"

/**
 * One kept-alive HTTP/1.1 connection spoken by hand: unlike `fetch`, which keeps its own pool
 * and its own idle timers, the test decides the moment each request leaves on the same socket
 * (docs/deploy.md, "Idle connections").
 */
export interface RawAnswer {
  readonly status: number
  /** Header names in lower case. */
  readonly headers: Readonly<Record<string, string>>
  readonly body: string
}

export interface RawConnection {
  /** Writes a GET for `path` on the connection at once. */
  readonly send: (path: string) => void
  /** The next answer on the connection; rejects with the socket's error (`ECONNRESET`) or when it closes first. */
  readonly answer: () => Promise<RawAnswer>
  /** How the server ended the connection: `end` for a clean close (FIN), else the socket's error code; and when. */
  readonly closed: Promise<{ readonly how: string; readonly at: number }>
  readonly destroy: () => void
}

const parseHead = (head: string) => {
  const [statusLine = "", ...lines] = head.split("\r\n")
  const headers: Record<string, string> = {}
  for (const line of lines) {
    const colon = line.indexOf(":")
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim()
  }
  return { status: Number(statusLine.split(" ")[1]), headers }
}

export const rawConnection = async (url: string): Promise<RawConnection> => {
  const { hostname, port } = new URL(url)
  const socket = connect(Number(port), hostname)
  await new Promise<void>((resolve, reject) => socket.once("connect", resolve).once("error", reject))
  let buffered = Buffer.alloc(0)
  const answers: Array<RawAnswer> = []
  let waiting: { resolve: (answer: RawAnswer) => void; reject: (error: Error) => void } | undefined
  let failure: Error | undefined
  const settle = () => {
    if (waiting === undefined) return
    const next = answers.shift()
    if (next !== undefined) waiting.resolve(next)
    else if (failure !== undefined) waiting.reject(failure)
    else return
    waiting = undefined
  }
  socket.on("data", (chunk: Buffer) => {
    buffered = Buffer.concat([buffered, chunk])
    for (;;) {
      const end = buffered.indexOf("\r\n\r\n")
      if (end < 0) break
      const { status, headers } = parseHead(buffered.subarray(0, end).toString("latin1"))
      const length = Number(headers["content-length"] ?? 0)
      if (buffered.length < end + 4 + length) break
      answers.push({ status, headers, body: buffered.subarray(end + 4, end + 4 + length).toString("utf8") })
      buffered = buffered.subarray(end + 4 + length)
    }
    settle()
  })
  const closed = new Promise<{ how: string; at: number }>((resolve) => {
    socket.once("error", (error: NodeJS.ErrnoException) => {
      failure = error
      resolve({ how: error.code ?? error.message, at: performance.now() })
      settle()
    })
    socket.once("end", () => resolve({ how: "end", at: performance.now() }))
    socket.once("close", () => {
      failure ??= new Error("the server closed the connection before answering")
      resolve({ how: "closed", at: performance.now() })
      settle()
    })
  })
  return {
    send: (path) => void socket.write(`GET ${path} HTTP/1.1\r\nHost: ${hostname}\r\nConnection: keep-alive\r\n\r\n`),
    answer: () => new Promise<RawAnswer>((resolve, reject) => ((waiting = { resolve, reject }), settle())),
    closed,
    destroy: () => void socket.destroy()
  }
}
