import { Context } from "effect"

/**
 * A server's own figures in Prometheus's text format (docs/deploy.md, "Metrics"): requests by
 * route, method and status, their latency as a histogram, and gauges read when scraped (open
 * change streams, the mail outbox, the database pool). One registry per server, made with it.
 */

/** Latency buckets, in seconds: from a cached read to a slow upload. */
export const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10] as const

export interface GaugeReading {
  readonly labels?: Readonly<Record<string, string>>
  readonly value: number
}

export interface Gauge {
  readonly name: string
  readonly help: string
  /** Read when scraped: a value, or several by label. */
  readonly read: () => ReadonlyArray<GaugeReading> | Promise<ReadonlyArray<GaugeReading>>
}

interface Histogram {
  readonly counts: Array<number>
  sum: number
  count: number
}

/** The level of the change streams open on this server: the stream area counts them, the metrics show them. */
export const CHANGE_STREAMS_OPEN = "change_streams_open"

export interface Metrics {
  /** One request answered: counted by route, method and status, its time in the histogram. */
  readonly observe: (request: { readonly route: string; readonly method: string; readonly status: number; readonly seconds: number }) => void
  /** A number kept by the server, such as the open change streams. */
  readonly level: (name: string) => { readonly up: () => void; readonly down: () => void; readonly value: () => number }
  readonly render: (gauges: ReadonlyArray<Gauge>) => Promise<string>
}

/** A label value as the text format wants it: backslash, quote and newline escaped. */
const escape = (value: string) => value.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n")
const labelText = (labels: Readonly<Record<string, string>>) => {
  const parts = Object.entries(labels).map(([key, value]) => `${key}="${escape(value)}"`)
  return parts.length === 0 ? "" : `{${parts.join(",")}}`
}

export const makeMetrics = (): Metrics => {
  const requests = new Map<string, { readonly labels: Record<string, string>; count: number }>()
  const latency = new Map<string, Histogram>()
  const levels = new Map<string, number>()
  return {
    observe: ({ route, method, status, seconds }) => {
      const labels = { route, method, status: String(status) }
      const key = JSON.stringify(labels)
      const counter = requests.get(key) ?? { labels, count: 0 }
      counter.count += 1
      requests.set(key, counter)
      const histogram = latency.get(route) ?? { counts: LATENCY_BUCKETS.map(() => 0), sum: 0, count: 0 }
      LATENCY_BUCKETS.forEach((bound, index) => {
        if (seconds <= bound) histogram.counts[index]! += 1
      })
      histogram.sum += seconds
      histogram.count += 1
      latency.set(route, histogram)
    },
    level: (name) => ({
      up: () => void levels.set(name, (levels.get(name) ?? 0) + 1),
      down: () => void levels.set(name, (levels.get(name) ?? 0) - 1),
      value: () => levels.get(name) ?? 0
    }),
    render: async (gauges) => {
      const lines: Array<string> = [
        "# HELP http_requests_total Requests answered, by route, method and status.",
        "# TYPE http_requests_total counter",
        ...[...requests.values()].map(({ labels, count }) => `http_requests_total${labelText(labels)} ${count}`),
        "# HELP http_request_duration_seconds Time from a request's arrival to the end of its answer, by route.",
        "# TYPE http_request_duration_seconds histogram"
      ]
      for (const [route, histogram] of latency) {
        LATENCY_BUCKETS.forEach((bound, index) =>
          lines.push(`http_request_duration_seconds_bucket${labelText({ route, le: String(bound) })} ${histogram.counts[index]}`)
        )
        lines.push(`http_request_duration_seconds_bucket${labelText({ route, le: "+Inf" })} ${histogram.count}`)
        lines.push(`http_request_duration_seconds_sum${labelText({ route })} ${histogram.sum}`)
        lines.push(`http_request_duration_seconds_count${labelText({ route })} ${histogram.count}`)
      }
      const readings = await Promise.all(gauges.map(async (gauge) => ({ gauge, values: await gauge.read() })))
      for (const { gauge, values } of readings) {
        lines.push(`# HELP ${gauge.name} ${gauge.help}`, `# TYPE ${gauge.name} gauge`)
        for (const { labels, value } of values) lines.push(`${gauge.name}${labelText(labels ?? {})} ${value}`)
      }
      return `${lines.join("\n")}\n`
    }
  }
}

/** The server's registry, for what counts and what is scraped. */
export class ServerMetrics extends Context.Service<ServerMetrics, Metrics>()("platform/ServerMetrics") {}
