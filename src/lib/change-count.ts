/**
 * How many of a person's changes wait for the server, in words (docs/console.md, "Offline"): one
 * place for the singular and the plural, so each sentence about them is written once.
 */
export const changeCount = (count: number) =>
  count === 1
    ? { changes: "1 change", they: "It", them: "it", are: "is", have: "has" }
    : { changes: `${count} changes`, they: "They", them: "them", are: "are", have: "have" }
