import { type Block, type BlockKind, type Mark, type MarkKind, readBlocks } from "./rich-text.ts"
import { type DiffPart, wordDiff } from "./word-diff.ts"

/**
 * What changed between two versions of a post body, as a reader sees it (docs/architecture.md,
 * "Record history"): block by block, the blocks both have kept aside, a block that changed as a
 * word diff of its text with its formatting changes named ("made bold", "now a heading", "link
 * changed"), a block that came or went whole.
 */

/** A formatting change of one block. */
export type FormatChange =
  | { readonly type: "block"; readonly from: BlockKind; readonly to: BlockKind }
  | { readonly type: "align"; readonly from: string; readonly to: string }
  | { readonly type: "mark"; readonly mark: Exclude<MarkKind, "link">; readonly text: string; readonly added: boolean }
  | { readonly type: "link"; readonly text: string; readonly from: string | null; readonly to: string | null }

export type BlockChange =
  | { readonly kind: "same"; readonly block: Block }
  | { readonly kind: "deleted"; readonly block: Block }
  | { readonly kind: "inserted"; readonly block: Block }
  | {
      readonly kind: "changed"
      readonly before: Block
      readonly after: Block
      readonly words: ReadonlyArray<DiffPart>
      readonly formatting: ReadonlyArray<FormatChange>
    }

const keyOf = (block: Block) => JSON.stringify([block.kind, block.align, block.text, block.marks])

const markKey = (mark: Mark) => `${mark.kind}\u0000${mark.text}`

/** The formatting that differs between two forms of one block. */
export const formattingChanges = (before: Block, after: Block): ReadonlyArray<FormatChange> => {
  const changes: Array<FormatChange> = []
  if (before.kind !== after.kind) changes.push({ type: "block", from: before.kind, to: after.kind })
  if (before.align !== after.align) changes.push({ type: "align", from: before.align, to: after.align })
  const had = new Map(before.marks.map((mark) => [markKey(mark), mark]))
  const has = new Map(after.marks.map((mark) => [markKey(mark), mark]))
  for (const mark of after.marks) {
    const old = had.get(markKey(mark))
    if (mark.kind === "link") {
      if (old === undefined) changes.push({ type: "link", text: mark.text, from: null, to: mark.href ?? "" })
      else if (old.href !== mark.href) changes.push({ type: "link", text: mark.text, from: old.href ?? "", to: mark.href ?? "" })
    } else if (old === undefined) changes.push({ type: "mark", mark: mark.kind, text: mark.text, added: true })
  }
  for (const mark of before.marks) {
    if (has.has(markKey(mark))) continue
    if (mark.kind === "link") changes.push({ type: "link", text: mark.text, from: mark.href ?? "", to: null })
    else changes.push({ type: "mark", mark: mark.kind, text: mark.text, added: false })
  }
  return changes
}

const wordsOf = (text: string) => new Set(text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [])

/** Whether a block that went and one that came are one block edited: half their words or more in common, or the same words. */
const alike = (a: Block, b: Block) => {
  if (a.text === b.text) return true
  const [x, y] = [wordsOf(a.text), wordsOf(b.text)]
  const shared = [...x].filter((word) => y.has(word)).length
  return shared * 2 >= Math.max(x.size, y.size) && shared > 0
}

/** The blocks between two kept ones: each that went paired, in order, with the first alike that came; the rest whole. */
const gapChanges = (gone: ReadonlyArray<Block>, came: ReadonlyArray<Block>): ReadonlyArray<BlockChange> => {
  const out: Array<BlockChange> = []
  let next = 0
  for (const block of gone) {
    const at = came.findIndex((candidate, index) => index >= next && alike(block, candidate))
    if (at < 0) {
      out.push({ kind: "deleted", block })
      continue
    }
    for (const inserted of came.slice(next, at)) out.push({ kind: "inserted", block: inserted })
    const after = came[at]!
    out.push({ kind: "changed", before: block, after, words: wordDiff(block.text, after.text), formatting: formattingChanges(block, after) })
    next = at + 1
  }
  for (const inserted of came.slice(next)) out.push({ kind: "inserted", block: inserted })
  return out
}

/** Beyond this many cells (blocks before × blocks after) the blocks are compared only at their common start and end. */
const MAX_CELLS = 1_000_000

/** The blocks of two versions compared: those both have are `same`, in order. */
export const blockDiff = (before: ReadonlyArray<Block>, after: ReadonlyArray<Block>): ReadonlyArray<BlockChange> => {
  const a = before.map(keyOf)
  const b = after.map(keyOf)
  const [n, m] = [a.length, b.length]
  const out: Array<BlockChange> = []
  if (n * m > MAX_CELLS) return gapChanges(before, after)
  // Lengths of the longest common subsequence of each pair of suffixes.
  const table = new Uint32Array((n + 1) * (m + 1))
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      table[i * (m + 1) + j] = a[i] === b[j] ? table[(i + 1) * (m + 1) + j + 1]! + 1 : Math.max(table[(i + 1) * (m + 1) + j]!, table[i * (m + 1) + j + 1]!)
    }
  }
  let [i, j] = [0, 0]
  let gone: Array<Block> = []
  let came: Array<Block> = []
  const closeGap = () => {
    out.push(...gapChanges(gone, came))
    gone = []
    came = []
  }
  while (i < n || j < m) {
    if (i < n && j < m && a[i] === b[j]) {
      closeGap()
      out.push({ kind: "same", block: after[j]! })
      i++
      j++
    } else if (j >= m || (i < n && table[(i + 1) * (m + 1) + j]! >= table[i * (m + 1) + j + 1]!)) gone.push(before[i++]!)
    else came.push(after[j++]!)
  }
  closeGap()
  return out
}

/** Two stored post bodies compared as a reader sees them. */
export const richTextDiff = (before: string, after: string): ReadonlyArray<BlockChange> => blockDiff(readBlocks(before), readBlocks(after))
