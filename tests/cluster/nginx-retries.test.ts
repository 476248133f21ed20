import { randomUUID } from "node:crypto"
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http"
import { afterEach, describe, expect, it } from "vitest"
import { startNginx, type RunningNginx } from "../support/nginx.ts"

/**
 * Which requests nginx, configured as docs/deploy.md shows ("Behind nginx"), sends to a second
 * server when the first stays silent past its read timeout: a write that carries an
 * Idempotency-Key is sent on (the second run finds the first's key), a keyless POST never is,
 * since the silent server may still run it when it wakes. Two stand-in servers record what
 * reaches them: the first never answers, the second answers at once.
 */
interface Upstream {
  readonly port: number
  readonly received: Array<string>
  readonly close: () => Promise<void>
}

const upstream = async (answer: boolean): Promise<Upstream> => {
  const received: Array<string> = []
  const server: Server = createServer((request: IncomingMessage, response: ServerResponse) => {
    request.resume()
    request.on("end", () => {
      received.push(`${request.method} ${request.url}`)
      if (answer) response.end("second")
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const address = server.address()
  return {
    port: typeof address === "object" && address !== null ? address.port : 0,
    received,
    close: () => {
      server.closeAllConnections()
      return new Promise((resolve) => server.close(() => resolve()))
    }
  }
}

let started: Array<{ readonly close: () => Promise<void> }> = []
afterEach(async () => {
  for (const running of started) await running.close()
  started = []
})

/** nginx in front of a silent server and an answering one, in that order: round robin sends the first request to the silent one. */
const silentFirst = async () => {
  const silent = await upstream(false)
  const answering = await upstream(true)
  const nginx: RunningNginx = await startNginx([silent.port, answering.port])
  started.push(silent, answering, { close: nginx.stop })
  return { silent, answering, nginx }
}

const post = (nginx: RunningNginx, headers: Record<string, string>) =>
  fetch(`${nginx.url}/api/upload/image`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: "{}" })

describe("nginx's retries on a silent server", () => {
  it("sends a write with an Idempotency-Key on to the other server", async () => {
    const { silent, answering, nginx } = await silentFirst()
    const answer = await post(nginx, { "idempotency-key": randomUUID() })
    expect([answer.status, await answer.text()]).toEqual([200, "second"])
    expect([silent.received, answering.received]).toEqual([["POST /api/upload/image"], ["POST /api/upload/image"]])
  })

  it("never sends a keyless POST to a second server once the first was sent it: the client is answered 504", async () => {
    const { silent, answering, nginx } = await silentFirst()
    const answer = await post(nginx, {})
    expect(answer.status).toBe(504)
    expect([silent.received, answering.received]).toEqual([["POST /api/upload/image"], []])
  })
})
