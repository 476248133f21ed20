import type { AnyStateMachine } from "xstate"

type StateNode = AnyStateMachine["root"]

export const nameOf = (node: StateNode) => (node.path.length === 0 ? "(machine)" : node.path.join("."))

const guardName = (guard: unknown): string =>
  guard === undefined
    ? ""
    : typeof guard === "string"
      ? ` [${guard}]`
      : typeof guard === "object" && guard !== null && "type" in guard
        ? ` [${String(guard.type)}]`
        : " [inline guard]"

const actionNames = (actions: ReadonlyArray<unknown>): ReadonlyArray<string> =>
  actions.flatMap((action) =>
    typeof action === "string" ? [action] : typeof action === "object" && action !== null && "type" in action ? [String(action.type)] : []
  )

type Definition = ReturnType<StateNode["transitions"]["get"]> extends ReadonlyArray<infer D> | undefined ? D : never

/** One transition as the pinned tables write it. */
export const lineOf = (definition: Pick<Definition, "source" | "eventType" | "guard" | "actions" | "target" | "reenter">): string => {
  const targets = definition.target === undefined ? "(stays)" : definition.target.map(nameOf).join(",")
  const actions = actionNames(definition.actions)
  return (
    `${nameOf(definition.source)} --${definition.eventType === "" ? "(always)" : definition.eventType}${guardName(definition.guard)}--> ${targets}` +
    `${definition.reenter ? " (reenter)" : ""}${actions.length === 0 ? "" : ` / ${actions.join(", ")}`}`
  )
}

/** The state names a table mentions (sources and targets), nested ones by their dotted path. */
export const statesOfTable = (table: ReadonlyArray<string>): ReadonlySet<string> =>
  new Set(
    table.flatMap((line) => {
      const match = /^(\S+) --.*?--> (\S+)/.exec(line)
      if (match === null) throw new Error(`Not a transition line: ${line}`)
      const [, source = "", targets = ""] = match
      return [source, ...targets.split(",")].filter((name) => name !== "(stays)" && name !== "(machine)")
    })
  )

/**
 * Every transition a machine declares, at every level (root `on` included), one line each:
 * `source --EVENT [guard]--> target (reenter) / named actions`. A test pins this list to a
 * table written from the spec, so adding, removing or redirecting a transition fails it.
 */
export const transitionTable = (machine: AnyStateMachine): ReadonlyArray<string> => {
  const lines: Array<string> = []
  const visit = (node: StateNode) => {
    const definitions = [...node.transitions.values()].flat().concat(node.always ?? [])
    for (const definition of definitions) lines.push(lineOf(definition))
    for (const child of Object.values(node.states) as ReadonlyArray<StateNode>) visit(child)
  }
  visit(machine.root)
  return lines.sort()
}
