import { readFileSync } from "node:fs"

/** Resident memory of a process now, in MB. */
const rssOf = (pid: number) => Math.round(Number(readFileSync(`/proc/${pid}/status`, "utf8").match(/^VmRSS:\s+(\d+) kB/m)?.[1] ?? 0) / 1024)

export interface ExportFigures {
  readonly rows: number
  readonly seconds: number
  readonly rowsPerSecond: number
  readonly megabytes: number
  readonly rssBeforeMb: number
  readonly rssPeakMb: number
}

/**
 * Downloads a whole directory as CSV from a running product, reading the stream as it comes,
 * and samples the server's resident memory every 20 ms while it streams.
 */
export const measureExport = async (url: string, token: string, pid: number): Promise<ExportFigures> => {
  const rssBeforeMb = rssOf(pid)
  let rssPeakMb = rssBeforeMb
  const sampler = setInterval(() => (rssPeakMb = Math.max(rssPeakMb, rssOf(pid))), 20)
  const started = performance.now()
  const response = await fetch(`${url}/api/admin/addresses/generated?format=csv`, { headers: { authorization: `Bearer ${token}` } })
  if (!response.ok || response.body === null) throw new Error(`export failed: ${response.status}`)
  let bytes = 0
  let lines = 0
  const reader = response.body.getReader()
  for (let next = await reader.read(); !next.done; next = await reader.read()) {
    bytes += next.value.length
    for (const byte of next.value) if (byte === 10) lines++
  }
  const seconds = (performance.now() - started) / 1000
  clearInterval(sampler)
  const rows = lines - 1
  return {
    rows,
    seconds: Math.round(seconds * 100) / 100,
    rowsPerSecond: Math.round(rows / seconds),
    megabytes: Math.round(bytes / 1024 / 102.4) / 10,
    rssBeforeMb,
    rssPeakMb
  }
}
