import { getShortestPaths } from "xstate/graph"
import { expect, it } from "vitest"
import { type AnyStateMachine, createActor, type EventObject, fromPromise, type InspectionEvent, type Snapshot, transition } from "xstate"
import { lineOf, statesOfTable } from "./transitions.ts"

/**
 * Model-based tests that drive the real thing (docs/testing.md, "Machines"). Paths are generated
 * from a machine with xstate/graph (xstate's own path generation): the shortest path to every distinct state, then, for every
 * transition those paths leave untaken, the shortest path to its source plus that event; a path
 * that another one starts with is left out (`withoutPrefixes`). Each path is replayed once on
 * the machine alone, to learn which pinned-table lines each step takes (the machine's own
 * microsteps, eventless ones included), then executed step by step on the real screen by a
 * `ScreenDriver`: each event is a person's action or an arranged server answer, and after each
 * step the driver asserts what a person sees in the state reached. Coverage is counted against
 * the pinned table (written from the spec), never against the machine.
 */

export type MachineSnapshot = Snapshot<unknown> & {
  readonly value: unknown
  readonly context: unknown
  readonly _nodes?: ReadonlyArray<{ readonly path: ReadonlyArray<string> }>
}

export interface ModelStep {
  readonly event: EventObject
  /** The snapshot the machine reaches after this step. */
  readonly expected: MachineSnapshot
  /** The pinned-table lines this step takes. */
  readonly lines: ReadonlyArray<string>
}

export interface ModelPath {
  /** The machine's input on this path (the screen is opened to match it). */
  readonly input: unknown
  readonly initial: MachineSnapshot
  /** Lines taken on start (eventless transitions out of the initial state). */
  readonly initialLines: ReadonlyArray<string>
  readonly steps: ReadonlyArray<ModelStep>
}

/** The name of the deepest active state(s), dotted for nested ones: what drivers key their checks on. */
export const stateName = (snapshot: MachineSnapshot): string => {
  const leaves = (value: unknown, prefix: string): ReadonlyArray<string> =>
    typeof value === "string"
      ? [`${prefix}${value}`]
      : Object.entries(value as Record<string, unknown>).flatMap(([key, child]) => leaves(child, `${prefix}${key}.`))
  return leaves(snapshot.value, "").join("|")
}

/** Every active state node by its dotted path (nested and parallel ones included). */
const activeStates = (snapshot: MachineSnapshot): ReadonlyArray<string> =>
  (snapshot._nodes ?? []).filter((node) => node.path.length > 0).map((node) => node.path.join("."))

interface Deferred {
  readonly resolve: (value: unknown) => void
  readonly reject: (error: unknown) => void
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0))

const outcomeOf = (type: string, actorIds: ReadonlyArray<string>) => {
  for (const id of actorIds) {
    if (type === `xstate.done.actor.${id}`) return { id, done: true }
    if (type === `xstate.error.actor.${id}`) return { id, done: false }
  }
  return undefined
}

export interface MachineModel<M extends AnyStateMachine> {
  readonly machine: M
  /** The machine's inputs to start from (a stored token or none, say); one by default. */
  readonly inputs?: ReadonlyArray<unknown>
  /** The events to try from a snapshot; actor outcomes are `xstate.done.actor.ID` / `xstate.error.actor.ID` events. */
  readonly events: (snapshot: MachineSnapshot) => ReadonlyArray<EventObject>
  /** What makes two snapshots different states for the tests: the value, plus what guards read. */
  readonly key: (snapshot: MachineSnapshot) => string
  /** The invoked promise actors, whose outcomes the paths choose. */
  readonly actorIds: ReadonlyArray<string>
  readonly provide?: Parameters<M["provide"]>[0]
}

/** Replays a path's events on the machine alone, recording the table lines each step takes. */
const replay = async <M extends AnyStateMachine>(model: MachineModel<M>, input: unknown, events: ReadonlyArray<EventObject>): Promise<ModelPath> => {
  const pending = new Map<string, Deferred>()
  const actors = Object.fromEntries(model.actorIds.map((id) => [id, fromPromise(() => new Promise((resolve, reject) => pending.set(id, { resolve, reject })))]))
  const machine = model.machine.provide({ ...model.provide, actors: { ...model.provide?.actors, ...actors } } as never)
  let taken: Array<string> = []
  const live = createActor(machine, {
    input,
    inspect: (inspection: InspectionEvent) => {
      if (inspection.type !== "@xstate.microstep") return
      for (const definition of inspection._transitions) taken.push(lineOf(definition as never))
    }
  } as never)
  live.start()
  await settle()
  const initial = live.getSnapshot() as MachineSnapshot
  const initialLines = taken
  const steps: Array<ModelStep> = []
  for (const event of events) {
    taken = []
    const outcome = outcomeOf(event.type, model.actorIds)
    if (outcome === undefined) live.send(event)
    else {
      const deferred = pending.get(outcome.id)
      if (deferred === undefined) throw new Error(`${outcome.id} is not running before ${event.type}`)
      pending.delete(outcome.id)
      if (outcome.done) deferred.resolve((event as { output?: unknown }).output)
      else deferred.reject((event as { error?: unknown }).error)
    }
    await settle()
    steps.push({ event, expected: live.getSnapshot() as MachineSnapshot, lines: taken })
  }
  live.stop()
  return { input, initial, initialLines, steps }
}

/**
 * The shortest path to every state the model tells apart, then one more path per transition
 * still untaken: the shortest path to a state it leaves from, plus its event.
 */
export const generatePaths = async <M extends AnyStateMachine>(model: MachineModel<M>): Promise<ReadonlyArray<ModelPath>> => {
  const paths: Array<ModelPath> = []
  const covered = new Set<string>()
  const add = (path: ModelPath) => {
    paths.push(path)
    for (const line of [...path.initialLines, ...path.steps.flatMap((step) => step.lines)]) covered.add(line)
  }
  for (const input of model.inputs ?? [undefined]) {
    const shortest = getShortestPaths(model.machine, {
      input: input as never,
      events: ((snapshot: MachineSnapshot) => model.events(snapshot)) as never,
      serializeState: ((snapshot: MachineSnapshot) => model.key(snapshot)) as never
    })
    const eventsOf = (path: (typeof shortest)[number]) =>
      (path.steps as ReadonlyArray<{ readonly event: EventObject }>).map((step) => step.event).filter((event) => event.type !== "xstate.init")
    for (const path of shortest) add(await replay(model, input, eventsOf(path)))
    for (const path of shortest) {
      const reached = path.state as MachineSnapshot
      const end = model.machine.resolveState({ value: reached.value, context: reached.context } as never) as MachineSnapshot
      for (const event of model.events(end)) {
        const [next, actions] = transition(model.machine, end as never, event as never) as unknown as [MachineSnapshot, ReadonlyArray<unknown>]
        const changed =
          JSON.stringify(next.value) !== JSON.stringify(end.value) || JSON.stringify(next.context) !== JSON.stringify(end.context) || actions.length > 0
        if (!changed) continue
        const extended = await replay(model, input, [...eventsOf(path), event])
        const last = extended.steps.at(-1)
        if (last !== undefined && last.lines.some((line) => !covered.has(line))) add(extended)
      }
    }
  }
  return withoutPrefixes(paths)
}

/**
 * Leaves out each path that another path of the same input starts with: the longer one takes the
 * same steps with the same checks after each, so the shorter adds nothing but a fresh screen.
 */
export const withoutPrefixes = (paths: ReadonlyArray<ModelPath>): ReadonlyArray<ModelPath> => {
  const eventsOf = (path: ModelPath) => path.steps.map((step) => JSON.stringify(step.event))
  return paths.filter((path) => {
    const events = eventsOf(path)
    return !paths.some((other) => {
      if (other === path || other.steps.length <= path.steps.length) return false
      if (JSON.stringify(other.input) !== JSON.stringify(path.input)) return false
      const longer = eventsOf(other)
      return events.every((event, index) => longer[index] === event)
    })
  })
}

/** Drives one path on the real screen; `Context` is what one path's run holds (a page, ids…). */
export interface ScreenDriver<Context> {
  /** A fresh screen in the machine's initial state for this path's input (and, where start-up itself asks the server, its first outcome). */
  readonly open: (path: ModelPath) => Promise<Context>
  /** Ends the path's run; `failure` is what failed it, when one did (the driver may print its page first). */
  readonly close: (context: Context, failure?: unknown) => Promise<void>
  /**
   * Before the step whose outcome an actor event decides: arrange the server (hold the request,
   * change a record through the API, stop the mail transport) so that the outcome happens.
   */
  readonly arrange?: Readonly<Record<string, (context: Context, outcome: EventObject) => Promise<void>>>
  /** What a person does for each event type (for actor outcomes: let the arranged answer through). */
  readonly act: Readonly<Record<string, (context: Context, event: EventObject, before: MachineSnapshot) => Promise<void>>>
  /** What a person sees (and the server holds) in each state, by `stateName`. */
  readonly see: Readonly<Record<string, (context: Context, snapshot: MachineSnapshot, event: EventObject | undefined) => Promise<void>>>
}

export interface ScreenRun {
  readonly paths: number
  readonly steps: number
  readonly states: { readonly covered: ReadonlyArray<string>; readonly total: ReadonlyArray<string> }
  readonly transitions: { readonly covered: ReadonlyArray<string>; readonly total: ReadonlyArray<string> }
}

/** Runs every path on the screen; a step's failure names the path so far. */
export const driveScreen = async <M extends AnyStateMachine, Context>(
  model: MachineModel<M>,
  table: ReadonlyArray<string>,
  driver: ScreenDriver<Context>,
  paths: ReadonlyArray<ModelPath>
): Promise<ScreenRun> => {
  const coveredLines = new Set<string>()
  const coveredStates = new Set<string>()
  let steps = 0
  for (const path of paths) {
    const context = await driver.open(path)
    const trail: Array<string> = [stateName(path.initial)]
    let failure: unknown
    try {
      const see = async (snapshot: MachineSnapshot, event: EventObject | undefined) => {
        const name = stateName(snapshot)
        const check = driver.see[name]
        if (check === undefined) throw new Error(`No check of what a person sees in ${name}`)
        await check(context, snapshot, event)
        for (const state of activeStates(snapshot)) coveredStates.add(state)
      }
      await see(path.initial, undefined)
      for (const line of path.initialLines) coveredLines.add(line)
      // States passed through on start (a transient initial state) count as visited.
      for (const line of path.initialLines) coveredStates.add(line.split(" ")[0] ?? "")
      let before = path.initial
      for (const [index, step] of path.steps.entries()) {
        const next = path.steps[index + 1]
        if (next !== undefined && outcomeOf(next.event.type, model.actorIds) !== undefined) {
          await driver.arrange?.[next.event.type]?.(context, next.event)
        }
        const act = driver.act[step.event.type]
        if (act === undefined) throw new Error(`No person's action for ${step.event.type}`)
        trail.push(step.event.type)
        await act(context, step.event, before)
        trail.push(stateName(step.expected))
        await see(step.expected, step.event)
        for (const line of step.lines) {
          coveredLines.add(line)
          coveredStates.add(line.split(" ")[0] ?? "")
        }
        before = step.expected
        steps++
      }
    } catch (error) {
      failure = new Error(`On the path ${trail.join(" → ")}: ${error instanceof Error ? error.message : String(error)}`, { cause: error })
      throw failure
    } finally {
      await driver.close(context, failure)
    }
  }
  const tableStates = [...statesOfTable(table)].sort()
  return {
    paths: paths.length,
    steps,
    states: { covered: tableStates.filter((state) => coveredStates.has(state)), total: tableStates },
    transitions: { covered: table.filter((line) => coveredLines.has(line)), total: [...table] }
  }
}

/** Prints `states a/b, transitions c/d` from the pinned table and fails unless both are whole. */
export const expectTableCovered = (name: string, run: ScreenRun) => {
  console.log(
    `${name} on screen: ${run.paths} paths, ${run.steps} steps; states ${run.states.covered.length}/${run.states.total.length}, ` +
      `transitions ${run.transitions.covered.length}/${run.transitions.total.length}`
  )
  expect(run.transitions.total.filter((line) => !run.transitions.covered.includes(line))).toEqual([])
  expect(run.states.total.filter((state) => !run.states.covered.includes(state))).toEqual([])
}

/** `TEST_DEPTH=full` drives every generated path (`npm run test:nightly`); unset, a covering set. */
export const DEPTH_ENV = "TEST_DEPTH"

/** What a path proves: the pinned lines it takes and the states it is in on the way. */
const provenBy = (path: ModelPath): ReadonlySet<string> =>
  new Set([
    ...[...path.initialLines, ...path.steps.flatMap((step) => step.lines)].map((line) => `line ${line}`),
    ...[path.initial, ...path.steps.map((step) => step.expected)].flatMap((snapshot) => activeStates(snapshot).map((state) => `state ${state}`))
  ])

/**
 * The fewest paths, chosen greedily, that take every line and pass every state the generated
 * paths do (docs/testing.md, "Where the time goes"): a path adding nothing over the others drives
 * the same lines through the same screen checks. The whole set runs under `TEST_DEPTH=full`.
 */
export const coveringPaths = (paths: ReadonlyArray<ModelPath>): ReadonlyArray<ModelPath> => {
  const left = paths.map((path) => ({ path, proves: provenBy(path) }))
  const covered = new Set<string>()
  const chosen: Array<ModelPath> = []
  for (;;) {
    const gain = (proves: ReadonlySet<string>) => [...proves].filter((fact) => !covered.has(fact)).length
    const best = left.reduce<(typeof left)[number] | undefined>(
      (top, next) => (top === undefined || gain(next.proves) > gain(top.proves) ? next : top),
      undefined
    )
    if (best === undefined || gain(best.proves) === 0) break
    chosen.push(best.path)
    for (const fact of best.proves) covered.add(fact)
    left.splice(left.indexOf(best), 1)
  }
  // In the generated order: paths of the same input stay together.
  return paths.filter((path) => chosen.includes(path))
}

/** The test each machine's screen gets: the generated paths driven, the pinned table covered. */
export const drivesEveryPath = <M extends AnyStateMachine, Context>(
  name: string,
  model: MachineModel<M>,
  table: ReadonlyArray<string>,
  driver: ScreenDriver<Context>,
  timeoutMs = 300_000
) =>
  it(
    "every generated path runs on the screen, covering the spec's table",
    async () => {
      const paths = await generatePaths(model)
      const driven = process.env[DEPTH_ENV] === "full" ? paths : coveringPaths(paths)
      console.log(`${name}: ${driven.length} of ${paths.length} generated paths driven (${DEPTH_ENV}=${process.env[DEPTH_ENV] ?? "cover"})`)
      expectTableCovered(name, await driveScreen(model, table, driver, driven))
    },
    timeoutMs
  )
