import { useEffect, useState } from "react"
import { createRoot } from "react-dom/client"

/**
 * The yardstick of `npm run bench -- console`: the least a React page can do to show the
 * same list, fetching the same endpoint with the same stored token and rendering a plain table.
 */
interface Row {
  readonly _id: string
  readonly identifier: string
  readonly Name: string
  readonly Category?: string
  readonly Rank: number
}

const BareList = () => {
  const [rows, setRows] = useState<ReadonlyArray<Row>>([])
  useEffect(() => {
    void fetch("/api/admin/addresses/generated", { headers: { authorization: `Bearer ${localStorage.getItem("adminToken") ?? ""}` } })
      .then((response) => response.json() as Promise<{ data: { addresses: ReadonlyArray<Row> } }>)
      .then((body) => setRows(body.data.addresses))
  }, [])
  return (
    <table>
      <tbody>
        {rows.map((row) => (
          <tr key={row._id}>
            <td>{row.identifier}</td>
            <td>{row.Name}</td>
            <td>{row.Category}</td>
            <td>{row.Rank}</td>
          </tr>
        ))}
      </tbody>
    </table>
  )
}

const root = document.getElementById("root")
if (root !== null) createRoot(root).render(<BareList />)
