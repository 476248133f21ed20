import type { Colleague } from "../../contract/common.ts"

/**
 * How the console names a colleague (the desk's owners, the dashboard's figures per owner, who
 * did an event of the activity log). A person's e-mail comes only to whom may read admin
 * accounts, and for one's own (contract/common.ts, `Colleague`): a person with no name is then
 * named by the end of their id, as the desk names a record.
 */

export const unnamedColleague = (id: string): string => `Admin #${id.slice(-8)}`

const nameOf = (person: Colleague): string | null => (person.name === null || person.name.trim() === "" ? null : person.name)

/** Their name, else their e-mail, else the end of their id. */
export const colleagueLabel = (person: Colleague): string => nameOf(person) ?? person.email ?? unnamedColleague(person._id)

/** As a choice among colleagues: the name with the e-mail beside it when both are known. */
export const colleagueChoice = (person: Colleague): string => {
  const name = nameOf(person)
  return name !== null && person.email !== null ? `${name} (${person.email})` : colleagueLabel(person)
}
