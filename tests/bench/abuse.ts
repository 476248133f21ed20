import { noisePng } from "../support/images.ts"
import { signInFirstAdmin } from "../support/product.ts"
import { onEachDatabase, rssOf, statusOrClosed, underWatch } from "./product.ts"

const histogram = (statuses: ReadonlyArray<number | string>) =>
  Object.entries(statuses.reduce<Record<string, number>>((counts, status) => ({ ...counts, [status]: (counts[status] ?? 0) + 1 }), {}))
    .map(([status, count]) => `${count}×${status}`)
    .join(" ")

/**
 * `npm run bench -- abuse`: the attacks on memory (docs/testing.md) against the product as
 * `npm start` runs it, with its resident memory sampled throughout: four parallel 1 MB bodies of
 * bad items to a public form (no token), from four addresses, then four more from each past its
 * limit; and 100 parallel 5 MB uploads with an admin token. A refusal sent before the body is
 * read may reach its sender as a closed connection (`statusOrClosed`).
 */
export const measureAbuse = async (postgresUrl: string | undefined) => {
  const rows = await onEachDatabase(postgresUrl, { TRUST_PROXY: "127.0.0.1,::1" }, async (product, dataDir) => {
    const token = await signInFirstAdmin(product.url, dataDir)
    await new Promise((resolve) => setTimeout(resolve, 3_000))
    const idle = rssOf(product.pid)
    const body = JSON.stringify({ name: "p", category: "c", projectStatus: "beta", description: "d", team: Array(499_990).fill(1) })
    const bodies = await underWatch(product.pid, async () => {
      const answers: Array<{ status: number; bytes: number } | { status: "closed" }> = []
      for (let round = 0; round < 6; round++) {
        answers.push(
          ...(await Promise.all(
            [1, 2, 3, 4].map((client) =>
              statusOrClosed(async () => {
                const response = await fetch(`${product.url}/api/listings/project`, {
                  method: "POST",
                  headers: { "content-type": "application/json", "x-forwarded-for": `203.0.113.${client}` },
                  body
                })
                return { status: response.status, bytes: (await response.text()).length }
              })
            )
          ))
        )
      }
      return answers
    })
    const image = noisePng(1024, 1270)
    const uploads = await underWatch(product.pid, () =>
      Promise.all(
        Array.from({ length: 100 }, () =>
          statusOrClosed(async () => {
            const form = new FormData()
            form.set("image", new Blob([Uint8Array.from(image)], { type: "image/png" }), "big.png")
            form.set("type", "blog")
            const response = await fetch(`${product.url}/api/upload/image`, { method: "POST", body: form, headers: { authorization: `Bearer ${token}` } })
            await response.text()
            return { status: response.status }
          })
        )
      )
    )
    await new Promise((resolve) => setTimeout(resolve, 10_000))
    return {
      "idle MB": idle,
      "1 MB bad bodies: answers": histogram(bodies.result.map((answer) => answer.status)),
      "largest answer, bytes": Math.max(...bodies.result.map((answer) => ("bytes" in answer ? answer.bytes : 0))),
      "peak MB": bodies.peak,
      s: bodies.ms / 1000,
      [`100 × ${(image.length / 1024 / 1024).toFixed(1)} MB uploads: answers`]: histogram(uploads.result.map((answer) => answer.status)),
      "peak MB ": uploads.peak,
      "s ": uploads.ms / 1000,
      "10 s later MB": rssOf(product.pid)
    }
  })
  console.log("\nAbuse: answers and the server's resident memory (sampled every 20 ms) under each attack")
  console.table(rows)
}
