import type { Server } from "node:http"
import type { Socket } from "node:net"

/**
 * Idle kept-alive connections (docs/deploy.md, "Idle connections"). Every answer announces
 * `Keep-Alive: timeout=5`; a client that honours it (fetch drops an idle socket 2 s before the
 * hint) never sends on a connection the server has given up. The server keeps each one a second
 * longer than it says (Node's keep-alive buffer), and closes it only once it has looked for a
 * request on it: Node's own timer destroyed the socket the moment it ran out, before reading what
 * had arrived meanwhile, so a request that came while the process was busy (a long synchronous
 * statement of the embedded database, a starved core, a stopped process woken) was reset unread.
 */
export const KEEP_ALIVE_MS = 5_000
/** How much longer than announced an idle connection is kept. */
export const KEEP_ALIVE_GRACE_MS = 1_000

/**
 * With a `timeout` listener Node leaves the socket to it. The check waits one turn of the event
 * loop (`setImmediate` runs after the loop has read its sockets), so a request already on its way
 * in is read, and answered; a socket that received nothing is closed, with a FIN, since nothing
 * unread is left in it.
 */
const closeIfStillIdle = (socket: Socket) => {
  const readBefore = socket.bytesRead
  setImmediate(() => {
    if (!socket.destroyed && socket.bytesRead === readBefore) socket.destroy()
  })
}

export const honestKeepAlive = <S extends Server>(server: S): S => {
  server.keepAliveTimeout = KEEP_ALIVE_MS
  server.keepAliveTimeoutBuffer = KEEP_ALIVE_GRACE_MS
  // The server's only socket timeout: `server.timeout` stays 0, so this is the idle keep-alive one.
  server.on("timeout", closeIfStillIdle)
  return server
}
