import { Effect } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { addAdmin } from "../../server/admin-users/repository.ts"
import { freshPostgresOn } from "../support/database.ts"
import { call, freshIp } from "../support/http.ts"
import { latestCode, startTestServer } from "../support/server.ts"
import { askForCode, sendCode } from "../support/sign-in.ts"
import { openStream } from "../support/stream.ts"

/**
 * `npm run bench -- stream`: how fast one server hands a bulk approval of 500 listings to 10 open
 * streams on PostgreSQL (docs/architecture.md, "Live changes"): from the request to the last
 * event on the last stream, three runs.
 */
const STREAMS = 10
const LISTINGS = 500
const RUNS = 3

const seed = (count: number) =>
  Effect.flatMap(
    SqlClient,
    (sql) =>
      sql<{ id: string }>`INSERT INTO listings (id, type, name, description, status)
      SELECT gen_random_uuid(), 'community', 'Bench community ' || i, 'A group', 'pending' FROM generate_series(1, ${count}) AS i RETURNING id::text AS id`
  )

export const measureStream = async (postgresUrl: string) => {
  const database = await freshPostgresOn(postgresUrl)
  const server = await startTestServer(database)
  try {
    const email = `stream-bench-${process.pid}@example.com`
    await server.sql(addAdmin(email, "moderator"))
    const ip = freshIp()
    const asked = await askForCode(server.url, email, "moderator", { ip })
    const token = (await sendCode(server.url, email, await latestCode(server, email), asked.body.attempt, { ip })).body.token as string
    for (let run = 1; run <= RUNS; run++) {
      const ids = (await server.sql(seed(LISTINGS))).map((row) => row.id)
      const streams = await Promise.all(Array.from({ length: STREAMS }, () => openStream(server.url, token)))
      await Promise.all(streams.map((stream) => stream.ready()))
      const started = performance.now()
      const answer = await call(server.url, "POST", "/api/admin/listings/bulk", { token, body: { ids, action: "approve" } })
      if (answer.status !== 200) throw new Error(answer.text)
      const answered = performance.now() - started
      await Promise.all(streams.map((stream) => stream.until(() => stream.changes().length >= LISTINGS, "all events", 60_000)))
      const last = Math.max(...streams.map((stream) => stream.changes().at(-1)!.at)) - started
      const bytes = streams[0]!.changes().reduce((sum, event) => sum + JSON.stringify(event.data).length, 0)
      console.log(
        `run ${run}: answer ${answered.toFixed(0)} ms, last event on the last stream ${last.toFixed(0)} ms, ` +
          `${Math.round((STREAMS * LISTINGS * 1000) / last)} events/s delivered (${STREAMS} streams × ${LISTINGS}), ${Math.round(bytes / LISTINGS)} B of data per event`
      )
      await Promise.all(streams.map((stream) => stream.close()))
    }
  } finally {
    await server.stop()
    await database.drop()
  }
}
