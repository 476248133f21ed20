import { addAdmin } from "../../server/auth/admins.ts"
import { engines } from "../support/database.ts"
import { noisePng } from "../support/images.ts"
import { startTestServer } from "../support/server.ts"
import { signedInAs } from "../support/session.ts"

const percentile = (values: ReadonlyArray<number>, p: number) => {
  const sorted = [...values].sort((a, b) => a - b)
  return Math.round(sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0)
}

/** The time to upload a real image just under 5 MB on localhost: sent, checked, cleaned, stored, answered. */
export const measureUpload = async () => {
  const database = await engines[0]!.fresh()
  const server = await startTestServer(database)
  try {
    await server.sql(addAdmin("uploader@example.com", "admin"))
    const token = await signedInAs(server, "admin")
    const image = noisePng(1024, 1270)
    const timings: Array<number> = []
    for (let run = 0; run < 12; run++) {
      const form = new FormData()
      form.set("image", new Blob([Uint8Array.from(image)], { type: "image/png" }), "big.png")
      form.set("type", "blog")
      const started = performance.now()
      const response = await fetch(`${server.url}/api/upload/image`, { method: "POST", body: form, headers: { authorization: `Bearer ${token}` } })
      await response.json()
      if (response.status !== 200) throw new Error(`upload answered ${response.status}`)
      if (run >= 2) timings.push(performance.now() - started)
    }
    console.log(
      `\nUpload of a ${(image.length / 1024 / 1024).toFixed(2)} MiB PNG on localhost (PGlite, ${timings.length} runs after 2 warm-up): ` +
        `p50 ${percentile(timings, 50)} ms, p95 ${percentile(timings, 95)} ms, min ${Math.round(Math.min(...timings))} ms`
    )
  } finally {
    await server.stop()
    await database.drop()
  }
}
