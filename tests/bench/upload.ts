import autocannon from "autocannon"
import { noisePng } from "../support/images.ts"
import { signInFirstAdmin } from "../support/product.ts"
import { sleep } from "../support/wait.ts"
import { onEachDatabase, percentile, rssOf, statusOrClosed, underWatch } from "./product.ts"

/** One upload: its status, the stored file's URL, and the wait a 503 names. */
const uploadOnce = async (url: string, token: string, image: Uint8Array) => {
  const form = new FormData()
  form.set("image", new Blob([Uint8Array.from(image)], { type: "image/png" }), "big.png")
  form.set("type", "blog")
  const response = await fetch(`${url}/api/upload/image`, { method: "POST", body: form, headers: { authorization: `Bearer ${token}` } })
  const body = (await response.json()) as { url?: string; retryAfterSeconds?: number }
  return { status: response.status, url: body.url, retryAfterSeconds: body.retryAfterSeconds ?? 1 }
}
/** An upload tried until it is stored: a 503 (the server's four at a time and twelve in line are taken) again after the wait it names, a closed connection (a 503 seen as a close) after a second. */
const uploadUntilStored = async (url: string, token: string, image: Uint8Array) => {
  for (let tries = 1; ; tries++) {
    const answer = await statusOrClosed(() => uploadOnce(url, token, image))
    if (answer.status === "closed") {
      await sleep(1000)
      continue
    }
    if (answer.status === 200 && answer.url !== undefined) return { path: answer.url, tries }
    if (answer.status !== 503) throw new Error(`upload answered ${answer.status}`)
    await sleep(answer.retryAfterSeconds * 1000)
  }
}

const download = async (url: string) => {
  const response = await fetch(url)
  const bytes = (await response.arrayBuffer()).byteLength
  if (response.status !== 200) throw new Error(`download answered ${response.status}`)
  return bytes
}

/** Requests per second for `url` with `headers`, and how many answered `status`: autocannon, 10 connections, 5 s. */
const rate = async (url: string, headers: Record<string, string>, status: number) => {
  const result = await autocannon({ url, connections: 10, duration: 5, headers })
  const answered = result.statusCodeStats?.[String(status) as keyof typeof result.statusCodeStats]?.count ?? 0
  return { perSecond: Math.round(result.requests.average), share: `${Math.round((100 * answered) / Math.max(1, result.requests.total))} % ${status}` }
}

/**
 * `npm run bench -- upload` (docs/performance.md): against the product as `npm start` runs it,
 * on each database: a 4.96 MiB image uploaded and then downloaded for the first time (p50 and
 * p95 of 10 after 2 warm-ups), the server's peak memory under 100 parallel 5 MB uploads (a 503
 * tried again after its wait, until all are stored) and then 100 parallel downloads of them, and
 * an image's downloads per second: whole (a 140 kB image), revalidated (If-None-Match, 304) and
 * one 64 KiB range of the large one.
 */
export const measureUpload = async (postgresUrl: string | undefined) => {
  const large = noisePng(1024, 1270)
  const small = noisePng(200, 175)
  const rows = await onEachDatabase(postgresUrl, {}, async (product, dataDir) => {
    const token = await signInFirstAdmin(product.url, dataDir)
    const uploads: Array<number> = []
    const downloads: Array<number> = []
    for (let run = 0; run < 12; run++) {
      let started = performance.now()
      const { path } = await uploadUntilStored(product.url, token, large)
      const uploaded = performance.now() - started
      started = performance.now()
      await download(`${product.url}${path}`)
      if (run < 2) continue
      uploads.push(uploaded)
      downloads.push(performance.now() - started)
    }
    await sleep(3_000)
    const idle = rssOf(product.pid)
    const parallelUploads = await underWatch(product.pid, () => Promise.all(Array.from({ length: 100 }, () => uploadUntilStored(product.url, token, large))))
    const parallelDownloads = await underWatch(product.pid, () => Promise.all(parallelUploads.result.map(({ path }) => download(`${product.url}${path}`))))
    const { path: smallPath } = await uploadUntilStored(product.url, token, small)
    const largePath = parallelUploads.result[0]!.path
    const etag = (await fetch(`${product.url}${smallPath}`)).headers.get("etag") ?? '"none"'
    const whole = await rate(`${product.url}${smallPath}`, {}, 200)
    const cached = await rate(`${product.url}${smallPath}`, { "if-none-match": etag }, 304)
    const ranged = await rate(`${product.url}${largePath}`, { range: "bytes=1048576-1114111" }, 206)
    return {
      "upload p50 ms": percentile(uploads, 50),
      "upload p95 ms": percentile(uploads, 95),
      "first download p50 ms": percentile(downloads, 50),
      "first download p95 ms": percentile(downloads, 95),
      "idle MB": idle,
      "100 uploads: peak MB": parallelUploads.peak,
      "100 uploads: s (tries)": `${parallelUploads.ms / 1000} (${parallelUploads.result.reduce((sum, { tries }) => sum + tries, 0)})`,
      "100 downloads: peak MB": parallelDownloads.peak,
      "100 downloads: s": parallelDownloads.ms / 1000,
      "whole 140 kB req/s": `${whole.perSecond} (${whole.share})`,
      "If-None-Match req/s": `${cached.perSecond} (${cached.share})`,
      "64 KiB range req/s": `${ranged.perSecond} (${ranged.share})`
    }
  })
  console.log(`\nUploads of a ${(large.length / 1024 / 1024).toFixed(2)} MiB PNG and their downloads, the product as npm start runs it`)
  console.table(rows)
}
