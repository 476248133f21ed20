import type { ChildProcess } from "node:child_process"
import pg from "pg"
import { sleep } from "./wait.ts"

/**
 * A server stopped dead (SIGSTOP: a debugger, a frozen VM, a swap storm) in the middle of a
 * write, holding a row lock (docs/deploy.md, "A stalled server"): the stalled-server test and
 * the cluster's stopped-server test make it the same way.
 */

/** Runs `use` on a connection of its own to `databaseUrl`, closed after. */
export const withDatabase = async <A>(databaseUrl: string, use: (client: pg.Client) => Promise<A>): Promise<A> => {
  const client = new pg.Client({ connectionString: databaseUrl })
  await client.connect()
  try {
    return await use(client)
  } finally {
    await client.end()
  }
}

/** Whether some other session holds row `id` of `table` locked right now. */
export const rowLocked = (databaseUrl: string, table: string, id: string) =>
  withDatabase(databaseUrl, async (client) => {
    await client.query("BEGIN")
    try {
      await client.query(`SELECT 1 FROM ${pg.escapeIdentifier(table)} WHERE id = $1 FOR UPDATE NOWAIT`, [id])
      return false
    } catch (error) {
      if ((error as { code?: string }).code === "55P03") return true
      throw error
    } finally {
      await client.query("ROLLBACK")
    }
  })

/**
 * Stops `server` (SIGSTOP) at a moment `holding()` says it holds the lock, trying again (SIGCONT,
 * a short random pause) until it does; gives back when the stop that held began.
 */
export const stopWhileHolding = async (server: ChildProcess, holding: () => Promise<boolean>): Promise<number> => {
  for (let attempt = 0; attempt < 200; attempt++) {
    server.kill("SIGSTOP")
    await sleep(100)
    if (await holding()) return performance.now()
    server.kill("SIGCONT")
    await sleep(20 + Math.random() * 80)
  }
  throw new Error("the server never held the lock when stopped")
}
