/**
 * An RFC 4180 reader written for the tests, independent of the server's writer: quoted fields
 * with doubled quotes, commas and line breaks inside; records end with CRLF.
 */
export const parseCsv = (text: string): Array<Array<string>> => {
  const records: Array<Array<string>> = []
  let record: Array<string> = []
  let field = ""
  let quoted = false
  for (let i = 0; i < text.length; i++) {
    const char = text[i]
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        field += '"'
        i++
      } else if (char === '"') quoted = false
      else field += char
    } else if (char === '"' && field === "") quoted = true
    else if (char === ",") {
      record.push(field)
      field = ""
    } else if (char === "\r" && text[i + 1] === "\n") {
      record.push(field)
      records.push(record)
      record = []
      field = ""
      i++
    } else field += char
  }
  if (field !== "" || record.length > 0) throw new Error("the CSV does not end with CRLF")
  return records
}

/** The records as objects keyed by the header line. */
export const csvObjects = (text: string): Array<Record<string, string>> => {
  const [header, ...rows] = parseCsv(text)
  if (header === undefined) throw new Error("no header line")
  return rows.map((row) => Object.fromEntries(header.map((name, index) => [name, row[index] ?? ""])))
}
