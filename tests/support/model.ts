import { getShortestPaths } from "xstate/graph"
import { expect } from "vitest"
import { lineOf, statesOfTable } from "./transitions.ts"
import { type AnyStateMachine, createActor, type EventObject, fromPromise, type InputFrom, type InspectionEvent, type Snapshot, transition } from "xstate"

/**
 * Model-based testing for machines that invoke promise actors (which `createTestModel`
 * refuses): paths are generated from the machine itself, with each invoked actor's outcomes
 * listed as events, then replayed on a live actor whose actors are deferred promises that the
 * replay resolves or rejects at those steps. Coverage is counted against the machine's pinned
 * table (tests/spec/machine-tables.ts): every line taken (read from the actor's microsteps, so
 * eventless and root-level transitions count) and every state node active, nested ones by their
 * dotted path, compared as sets. The e2e counterpart that drives the screens is
 * tests/support/screen-model.ts.
 */

interface Deferred {
  resolve: (value: unknown) => void
  reject: (error: unknown) => void
}

const doneType = (id: string) => `xstate.done.actor.${id}`
const errorType = (id: string) => `xstate.error.actor.${id}`

export const actorDone = (id: string, output: unknown): EventObject & { output: unknown } => ({ type: doneType(id), output })
export const actorError = (id: string, error: unknown): EventObject & { error: unknown } => ({ type: errorType(id), error })

// A macrotask turn: every promise actor a step resolved has answered. `setImmediate`, not a
// zero timer, which Node rounds up to 1 ms, a second or more over a machine's paths.
const settle = () => new Promise((resolve) => setImmediate(resolve))

interface StepLike {
  readonly state: Snapshot<unknown> & { readonly value: unknown; readonly context: unknown }
  readonly event: EventObject
}

export interface ModelRun {
  readonly paths: number
  readonly states: { readonly covered: number; readonly total: number; readonly missing: ReadonlyArray<string> }
  readonly transitions: { readonly covered: number; readonly total: number; readonly missing: ReadonlyArray<string> }
}

/**
 * Generates the shortest path to every reachable snapshot for each input, replays each on a
 * live actor and calls `check(expected, actual)` after every step.
 */
export const runModel = async <M extends AnyStateMachine>(options: {
  readonly machine: M
  /** The pinned table the coverage is counted against. */
  readonly table: ReadonlyArray<string>
  readonly inputs: ReadonlyArray<InputFrom<M>>
  readonly events: (snapshot: ReturnType<M["transition"]>) => ReadonlyArray<EventObject>
  readonly actorIds: ReadonlyArray<string>
  /** What tells two snapshots apart for path generation (default: value and whole context). */
  readonly key?: (snapshot: ReturnType<M["transition"]>) => string
  readonly provide?: Parameters<M["provide"]>[0]
  /** `input` is the path's own (one of `inputs`), for expectations that start from it. */
  readonly check: (expected: StepLike["state"], actual: StepLike["state"], event: EventObject, input: InputFrom<M>) => void
}): Promise<ModelRun> => {
  const coveredTransitions = new Set<string>()
  const coveredStates = new Set<string>()
  let pathCount = 0
  for (const input of options.inputs) {
    const shortest = getShortestPaths(options.machine, {
      input,
      events: options.events as never,
      ...(options.key === undefined ? {} : { serializeState: options.key as never })
    })
    // The shortest path to each snapshot, then each of those plus one more event that changes
    // something: every transition out of every reachable snapshot is taken once.
    const extended = shortest.flatMap((path) => {
      // Re-resolved: a snapshot the traversal already stepped from can skip eventless transitions.
      const reached = path.state as StepLike["state"]
      const last = options.machine.resolveState({ value: reached.value, context: reached.context } as never) as never
      return options.events(last).flatMap((event) => {
        const [next, actions] = transition(options.machine, last, event as never) as [StepLike["state"], ReadonlyArray<unknown>]
        const before = last as StepLike["state"]
        // A re-entry (a load restarted) changes neither value nor context, but does something.
        const changed =
          JSON.stringify(next.value) !== JSON.stringify(before.value) || JSON.stringify(next.context) !== JSON.stringify(before.context) || actions.length > 0
        return changed ? [{ steps: [...(path.steps as ReadonlyArray<StepLike>), { state: next, event }] }] : []
      })
    })
    for (const path of [...shortest, ...extended]) {
      pathCount++
      const pending = new Map<string, Deferred>()
      const actors = Object.fromEntries(
        options.actorIds.map((id) => [id, fromPromise(() => new Promise((resolve, reject) => pending.set(id, { resolve, reject })))])
      )
      const machine = options.machine.provide({ ...options.provide, actors: { ...options.provide?.actors, ...actors } } as never)
      // Transitions are also read from the actor's own microsteps, so eventless ones a step
      // passes through (a validating state, say) count as taken.
      const live = createActor(machine, {
        input,
        inspect: (inspection: InspectionEvent) => {
          if (inspection.type === "@xstate.microstep") {
            for (const taken of inspection._transitions) {
              coveredTransitions.add(lineOf(taken as never))
              // A state passed through (a transient one) is visited though no snapshot shows it.
              if (taken.source.path.length > 0) coveredStates.add(taken.source.path.join("."))
            }
          }
          if (inspection.type !== "@xstate.microstep" && inspection.type !== "@xstate.snapshot") return
          const snapshot = inspection.snapshot as unknown as { readonly _nodes?: ReadonlyArray<{ readonly path: ReadonlyArray<string> }> }
          for (const node of snapshot._nodes ?? []) if (node.path.length > 0) coveredStates.add(node.path.join("."))
        }
      } as never).start()
      await settle()
      let previous = live.getSnapshot() as StepLike["state"]
      // The expected snapshot is worked out step by step from this path's own events (with a
      // coarse `key`, the graph's stored snapshot for a state may have come by another path).
      let expected = previous
      for (const step of path.steps as ReadonlyArray<StepLike>) {
        const type = step.event.type
        if (type === "xstate.init") {
          previous = live.getSnapshot() as StepLike["state"]
          expected = options.machine.resolveState({ value: step.state.value, context: step.state.context } as never) as never
          options.check(expected, previous, step.event, input)
          continue
        }
        expected = (transition(options.machine, expected as never, step.event as never) as unknown as [StepLike["state"]])[0]
        const actorId = options.actorIds.find((id) => type === doneType(id) || type === errorType(id))
        if (actorId !== undefined) {
          const deferred = pending.get(actorId)
          if (deferred === undefined)
            throw new Error(
              `${actorId} is not running at ${JSON.stringify(previous.value)} (path: ${(path.steps as ReadonlyArray<StepLike>).map((one) => one.event.type).join(", ")})`
            )
          pending.delete(actorId)
          if (type === doneType(actorId)) deferred.resolve((step.event as { output?: unknown }).output)
          else deferred.reject((step.event as { error?: unknown }).error)
        } else {
          live.send(step.event)
        }
        await settle()
        const actual = live.getSnapshot() as StepLike["state"]
        options.check(expected, actual, step.event, input)
        previous = actual
      }
      live.stop()
    }
  }
  const tableStates = [...statesOfTable(options.table)]
  const missingStates = tableStates.filter((state) => !coveredStates.has(state))
  const missing = options.table.filter((line) => !coveredTransitions.has(line))
  return {
    paths: pathCount,
    states: { covered: tableStates.length - missingStates.length, total: tableStates.length, missing: missingStates },
    transitions: { covered: options.table.length - missing.length, total: options.table.length, missing }
  }
}

/** Prints covered/total from the pinned table and fails unless every state and every line of it was taken. */
export const expectFullCoverage = (name: string, run: ModelRun) => {
  console.log(
    `${name}: ${run.paths} paths; states ${run.states.covered}/${run.states.total}; ` + `transitions ${run.transitions.covered}/${run.transitions.total}`
  )
  expect(run.transitions.missing).toEqual([])
  expect(run.states.missing).toEqual([])
}
