import type { Analytics } from "../../../contract/activity.ts"

const WIDTH = 600
const HEIGHT = 160
const AXIS = 18

/** "2026-11-23" as a short label: the day of the month, or the month of a year. */
const labelOf = (start: string, bucket: "day" | "month") => {
  const date = new Date(`${start}T00:00:00Z`)
  return bucket === "day"
    ? date.toLocaleDateString(undefined, { day: "numeric", month: "short", timeZone: "UTC" })
    : date.toLocaleDateString(undefined, { month: "short", year: "2-digit", timeZone: "UTC" })
}

/**
 * New records per day (or month) as bars: an SVG drawn here, no charting library on the
 * dashboard's chunk. The same figures are a table for screen readers.
 */
export const CreatedChart = ({ created }: { readonly created: Analytics["created"] }) => {
  const points = created.points
  const top = Math.max(1, ...points.map((point) => point.total))
  const slot = WIDTH / Math.max(1, points.length)
  const bar = Math.max(2, slot * 0.7)
  const every = Math.ceil(points.length / 8)
  return (
    <figure className="created-chart">
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT + AXIS}`}
        role="img"
        aria-label={`${created.total} new records; the busiest ${created.bucket} had ${top === 1 && created.total === 0 ? 0 : top}`}
      >
        <line x1="0" x2={WIDTH} y1={HEIGHT} y2={HEIGHT} className="created-chart-axis" />
        {points.map((point, index) => {
          const height = (point.total / top) * (HEIGHT - 12)
          const x = index * slot + (slot - bar) / 2
          return (
            <g key={point.start}>
              <rect x={x} y={HEIGHT - height} width={bar} height={height} rx="2" className="created-chart-bar">
                <title>{`${labelOf(point.start, created.bucket)}: ${point.total}`}</title>
              </rect>
              {index % every === 0 && (
                <text x={x + bar / 2} y={HEIGHT + 13} textAnchor="middle" className="created-chart-label">
                  {labelOf(point.start, created.bucket)}
                </text>
              )}
            </g>
          )
        })}
      </svg>
      <figcaption className="visually-hidden">
        <table>
          <thead>
            <tr>
              <th scope="col">{created.bucket === "day" ? "Day" : "Month"}</th>
              <th scope="col">New records</th>
            </tr>
          </thead>
          <tbody>
            {points.map((point) => (
              <tr key={point.start}>
                <td>{point.start}</td>
                <td>{point.total}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </figcaption>
      <p className="created-chart-total">{created.total.toLocaleString()} new in this period</p>
    </figure>
  )
}
