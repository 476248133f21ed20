import { getShortestPaths } from "@xstate/graph"
import { expect } from "vitest"
import { type AnyStateMachine, createActor, type EventObject, fromPromise, type InputFrom, type InspectionEvent, type Snapshot, transition } from "xstate"

/**
 * Model-based testing for machines that invoke promise actors (which `createTestModel`
 * refuses): paths are generated from the machine itself, with each invoked actor's outcomes
 * listed as events, then replayed on a live actor whose actors are deferred promises that the
 * replay resolves or rejects at those steps.
 */

interface Deferred {
  resolve: (value: unknown) => void
  reject: (error: unknown) => void
}

const doneType = (id: string) => `xstate.done.actor.${id}`
const errorType = (id: string) => `xstate.error.actor.${id}`

export const actorDone = (id: string, output: unknown): EventObject & { output: unknown } => ({ type: doneType(id), output })
export const actorError = (id: string, error: unknown): EventObject & { error: unknown } => ({ type: errorType(id), error })

const EVENTLESS = ""

const settle = () => new Promise((resolve) => setTimeout(resolve, 0))

interface StepLike {
  readonly state: Snapshot<unknown> & { readonly value: unknown; readonly context: unknown }
  readonly event: EventObject
}

/** Every (source state, event, target state) the machine definition declares. */
export const declaredTransitions = (machine: AnyStateMachine): ReadonlySet<string> => {
  const keys = new Set<string>()
  for (const node of Object.values(machine.root.states) as Array<AnyStateMachine["root"]>) {
    const definitions = [...node.transitions.values()].flat().concat(node.always ?? [])
    for (const definition of definitions) {
      for (const target of definition.target ?? [node]) keys.add(`${node.key} --${definition.eventType}--> ${target.key}`)
    }
  }
  return keys
}

export interface ModelRun {
  readonly paths: number
  readonly states: { readonly covered: number; readonly total: number }
  readonly transitions: { readonly covered: number; readonly total: number; readonly missing: ReadonlyArray<string> }
}

/**
 * Generates the shortest path to every reachable snapshot for each input, replays each on a
 * live actor and calls `check(expected, actual)` after every step.
 */
export const runModel = async <M extends AnyStateMachine>(options: {
  readonly machine: M
  readonly inputs: ReadonlyArray<InputFrom<M>>
  readonly events: (snapshot: ReturnType<M["transition"]>) => ReadonlyArray<EventObject>
  readonly actorIds: ReadonlyArray<string>
  readonly provide?: Parameters<M["provide"]>[0]
  readonly check: (expected: StepLike["state"], actual: StepLike["state"], event: EventObject) => void
}): Promise<ModelRun> => {
  const declared = declaredTransitions(options.machine)
  const coveredTransitions = new Set<string>()
  const coveredStates = new Set<string>()
  let pathCount = 0
  for (const input of options.inputs) {
    const shortest = getShortestPaths(options.machine, { input, events: options.events as never })
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
        const changed = next.value !== before.value || JSON.stringify(next.context) !== JSON.stringify(before.context) ||
          actions.length > 0
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
          if (inspection.type !== "@xstate.microstep") return
          for (const taken of inspection._transitions) {
            for (const target of taken.target ?? [taken.source]) {
              coveredTransitions.add(`${taken.source.key} --${taken.eventType}--> ${target.key}`)
              coveredStates.add(target.key)
            }
          }
        }
      } as never).start()
      await settle()
      let previous = live.getSnapshot() as StepLike["state"]
      for (const step of path.steps as ReadonlyArray<StepLike>) {
        const type = step.event.type
        if (type === "xstate.init") {
          previous = live.getSnapshot() as StepLike["state"]
          options.check(step.state, previous, step.event)
          coveredStates.add(String(previous.value))
          // A transient initial state (eventless transitions only) is passed through on start.
          const initial = options.machine.root.initial.target[0]?.key ?? ""
          if (initial !== String(previous.value)) {
            coveredStates.add(initial)
            coveredTransitions.add(`${initial} --${EVENTLESS}--> ${String(previous.value)}`)
          }
          continue
        }
        const actorId = options.actorIds.find((id) => type === doneType(id) || type === errorType(id))
        if (actorId !== undefined) {
          const deferred = pending.get(actorId)
          if (deferred === undefined) throw new Error(`${actorId} is not running at ${String(previous.value)}`)
          pending.delete(actorId)
          if (type === doneType(actorId)) deferred.resolve((step.event as { output?: unknown }).output)
          else deferred.reject((step.event as { error?: unknown }).error)
        } else {
          live.send(step.event)
        }
        await settle()
        const actual = live.getSnapshot() as StepLike["state"]
        options.check(step.state, actual, step.event)
        coveredTransitions.add(`${String(previous.value)} --${type}--> ${String(actual.value)}`)
        coveredStates.add(String(actual.value))
        previous = actual
      }
      live.stop()
    }
  }
  const total = Object.keys(options.machine.root.states).length
  const missing = [...declared].filter((key) => !coveredTransitions.has(key))
  return {
    paths: pathCount,
    states: { covered: coveredStates.size, total },
    transitions: { covered: declared.size - missing.length, total: declared.size, missing }
  }
}

/** Prints covered/total and fails unless every state and every declared transition was taken. */
export const expectFullCoverage = (name: string, run: ModelRun) => {
  console.log(
    `${name}: ${run.paths} paths; states ${run.states.covered}/${run.states.total}; ` +
      `transitions ${run.transitions.covered}/${run.transitions.total}`
  )
  expect(run.transitions.missing).toEqual([])
  expect(run.states.covered).toBe(run.states.total)
}
