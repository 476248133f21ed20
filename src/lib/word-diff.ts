/**
 * A word-level diff (docs/architecture.md, "Record history"): the words of `before` and `after`
 * (and the spaces between them), the longest common run kept, the rest marked as
 * deleted or inserted. Quadratic in words, so long texts are cut into their common start and
 * end first; what is left between is diffed when small enough, else shown as one deletion and
 * one insertion.
 */
export type DiffPart = { readonly kind: "same" | "deleted" | "inserted"; readonly text: string }

const wordsOf = (text: string): ReadonlyArray<string> => text.match(/\s+|\S+/g) ?? []

/** Beyond this many cells (words before × words after) the middle is not diffed word by word. */
const MAX_CELLS = 4_000_000

const merged = (parts: ReadonlyArray<DiffPart>): ReadonlyArray<DiffPart> => {
  const out: Array<DiffPart> = []
  for (const part of parts) {
    const last = out.at(-1)
    if (part.text === "") continue
    if (last !== undefined && last.kind === part.kind) out[out.length - 1] = { kind: part.kind, text: last.text + part.text }
    else out.push(part)
  }
  return out
}

export const wordDiff = (before: string, after: string): ReadonlyArray<DiffPart> => {
  const a = wordsOf(before)
  const b = wordsOf(after)
  let start = 0
  while (start < a.length && start < b.length && a[start] === b[start]) start++
  let end = 0
  while (end < a.length - start && end < b.length - start && a[a.length - 1 - end] === b[b.length - 1 - end]) end++
  const head = a.slice(0, start).join("")
  const tail = a.slice(a.length - end).join("")
  const midA = a.slice(start, a.length - end)
  const midB = b.slice(start, b.length - end)
  const middle: Array<DiffPart> = []
  if (midA.length * midB.length > MAX_CELLS) {
    middle.push({ kind: "deleted", text: midA.join("") }, { kind: "inserted", text: midB.join("") })
  } else {
    // Lengths of the longest common subsequence of each pair of suffixes.
    const n = midA.length
    const m = midB.length
    const table = new Uint32Array((n + 1) * (m + 1))
    for (let i = n - 1; i >= 0; i--) {
      for (let j = m - 1; j >= 0; j--) {
        table[i * (m + 1) + j] =
          midA[i] === midB[j] ? table[(i + 1) * (m + 1) + j + 1]! + 1 : Math.max(table[(i + 1) * (m + 1) + j]!, table[i * (m + 1) + j + 1]!)
      }
    }
    let i = 0
    let j = 0
    while (i < n && j < m) {
      if (midA[i] === midB[j]) {
        middle.push({ kind: "same", text: midA[i]! })
        i++
        j++
      } else if (table[(i + 1) * (m + 1) + j]! >= table[i * (m + 1) + j + 1]!) middle.push({ kind: "deleted", text: midA[i++]! })
      else middle.push({ kind: "inserted", text: midB[j++]! })
    }
    while (i < n) middle.push({ kind: "deleted", text: midA[i++]! })
    while (j < m) middle.push({ kind: "inserted", text: midB[j++]! })
  }
  return merged([{ kind: "same", text: head }, ...middle, { kind: "same", text: tail }])
}
