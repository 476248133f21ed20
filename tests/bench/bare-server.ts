/**
 * The yardstick for the list endpoint: node:http and the plain driver running the same two
 * queries (page and count) and writing the same JSON, with nothing else in the way.
 * Env: DATABASE_URL (PostgreSQL, through `pg`) or DATA_DIR (PGlite in DATA_DIR/db).
 */
import { PGlite } from "@electric-sql/pglite"
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm"
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import { join } from "node:path"
import pg from "pg"
import { type AddressRow, kinds } from "../../server/addresses/kinds.ts"

type Query = (text: string, params: ReadonlyArray<unknown>) => Promise<ReadonlyArray<Record<string, unknown>>>

const open = async (): Promise<Query> => {
  const url = process.env.DATABASE_URL
  if (url !== undefined) {
    const pool = new pg.Pool({ connectionString: url, max: 10 })
    return async (text, params) => (await pool.query<Record<string, unknown>>(text, [...params])).rows
  }
  const db = await PGlite.create(join(process.env.DATA_DIR ?? "./data", "db"), { extensions: { pg_trgm } })
  return async (text, params) => (await db.query<Record<string, unknown>>(text, [...params])).rows
}

const query = await open()
const page = `SELECT id, kind, identifier, name, category, description, logo, rank, website, buy, role,
    created_at AS "createdAt", updated_at AS "updatedAt", version,
    (SELECT total::int FROM address_counts WHERE kind = $1) AS directory_total
  FROM addresses WHERE kind = $1 ORDER BY created_at DESC, id DESC LIMIT 20 OFFSET 0`

const server = createServer((request, response) => void answer(request, response))
async function answer(request: IncomingMessage, response: ServerResponse) {
  const rows = await query(page, ["generated"])
  const total = Number(rows[0]?.directory_total ?? 0)
  const addresses = rows.map((row) => kinds.generated.fromRow(row as unknown as AddressRow))
  const body = JSON.stringify({ success: true, data: { addresses, pagination: { page: 1, limit: 20, total, pages: Math.ceil(total / 20) } } })
  response.writeHead(200, { "content-type": "application/json" }).end(body)
  void request
}
server.listen(0, "127.0.0.1", () => {
  const address = server.address()
  console.log(`Listening on http://127.0.0.1:${typeof address === "object" && address !== null ? address.port : 0}`)
})
process.on("SIGTERM", () => server.close(() => process.exit(0)))
