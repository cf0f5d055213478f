/**
 * State-chart graphs generated from the machines' own definitions (never written by hand, so the picture
 * cannot drift from the code). States are the machine's state nodes (ids are dotted key paths, the root is
 * the machine itself). Edges come from every node's `on` transitions; a root-level (global) transition is
 * attributed to each non-final child it can apply to and flagged `global`: a `stateIn` inside its guard
 * narrows the children, a final child is skipped (a machine in a final state takes no more events), and a
 * child whose own unguarded transition for the event shadows it is skipped. A targetless transition is a
 * self-edge marked `internal` (actions run, the state stays).
 */
import { and, not, or, stateIn, type AnyStateMachine } from "xstate"
import { personaMachine } from "../../machines/persona.js"
import { recentMachine } from "../../machines/recent.js"
import { reflectionMachine } from "../../machines/reflection.js"
import { sessionMachine } from "../../machines/session.js"

export interface GraphState {
  readonly id: string
  readonly label: string
  readonly final: boolean
  readonly initial: boolean
  readonly parent?: string
}

export interface GraphEdge {
  readonly from: string
  readonly to: string
  readonly event: string
  readonly guard?: string
  readonly actions: ReadonlyArray<string>
  readonly global: boolean
  readonly internal: boolean
}

export interface MachineGraph {
  readonly id: string
  readonly states: ReadonlyArray<GraphState>
  readonly edges: ReadonlyArray<GraphEdge>
}

type StateNode = AnyStateMachine["root"]
type Transition = NonNullable<ReturnType<StateNode["transitions"]["get"]>>[number]
type Guard = Transition["guard"]

const pathId = (node: StateNode): string => node.path.join(".")

const field = (value: unknown, key: string): unknown =>
  (typeof value === "function" || (typeof value === "object" && value !== null)) && key in value
    ? Reflect.get(value, key)
    : undefined

const guardList = (value: unknown): ReadonlyArray<unknown> => (Array.isArray(value) ? value : [])

/** xstate's higher-order guards, told apart by their shared `check` function (names do not survive bundling). */
const combinators = new Map<unknown, "and" | "or" | "not" | "in">([
  [field(and([]), "check"), "and"],
  [field(or([]), "check"), "or"],
  [field(not("x"), "check"), "not"],
  [field(stateIn("x"), "check"), "in"]
])
const combinator = (guard: unknown) => combinators.get(field(guard, "check"))

/** A readable label of a guard: `name`, `name(param=value)`, `and(…)`, `or(…)`, `not(…)`, `in(state)`. */
export const guardLabel = (guard: unknown): string => {
  if (typeof guard === "string") return guard
  if (typeof guard === "function") {
    const kind = combinator(guard)
    if (kind === "in") return `in(${String(field(guard, "stateValue"))})`
    if (kind === "not") return `not(${guardList(field(guard, "guards")).map(guardLabel).join(", ")})`
    if (kind !== undefined) return `${kind}(${guardList(field(guard, "guards")).map(guardLabel).join(", ")})`
    return guard.name === "" ? "guard" : guard.name
  }
  const type = field(guard, "type")
  if (typeof type === "string") {
    const params = field(guard, "params")
    const shown =
      typeof params === "object" && params !== null ? Object.entries(params).map(([k, v]) => `${k}=${String(v)}`) : []
    return shown.length === 0 ? type : `${type}(${shown.join(", ")})`
  }
  return "guard"
}

/** Whether a guard can hold while `key` is the active child: false only when its `stateIn` parts rule it out. */
const mayHoldIn = (guard: unknown, key: string): boolean | undefined => {
  const kind = combinator(guard)
  if (kind === "in") {
    const stateValue = field(guard, "stateValue")
    return typeof stateValue === "string" ? stateValue === key || stateValue.endsWith(`.${key}`) : undefined
  }
  if (kind === "not") {
    const inner = mayHoldIn(guardList(field(guard, "guards"))[0], key)
    return inner === undefined ? undefined : !inner
  }
  const parts = guardList(field(guard, "guards")).map((g) => mayHoldIn(g, key))
  if (kind === "and") return parts.includes(false) ? false : parts.every((p) => p === true) ? true : undefined
  if (kind === "or") return parts.includes(true) ? true : parts.every((p) => p === false) ? false : undefined
  return undefined
}

const actionLabel = (action: unknown): string => {
  if (typeof action === "string") return action
  const type = field(action, "type")
  if (type === "xstate.assign") return "assign"
  return typeof type === "string" ? type : "action"
}

const edgesOf = (from: StateNode, t: Transition, global: boolean): GraphEdge => {
  const target = t.target?.[0]
  const guard: Guard = t.guard
  return {
    from: pathId(from),
    to: target === undefined ? pathId(from) : pathId(target),
    event: t.eventType,
    ...(guard === undefined ? {} : { guard: guardLabel(guard) }),
    actions: t.actions.map(actionLabel),
    global,
    internal: target === undefined
  }
}

const walk = (node: StateNode): ReadonlyArray<StateNode> =>
  Object.values(node.states).flatMap((child) => [child, ...walk(child)])

/** The graph of one machine, states in definition order. */
export const toGraph = (machine: AnyStateMachine): MachineGraph => {
  const nodes = walk(machine.root)
  const states = nodes.map(
    (node): GraphState => ({
      id: pathId(node),
      label: node.key,
      final: node.type === "final",
      initial: node.parent?.initial.target.some((t: StateNode) => t === node) ?? false,
      ...(node.parent !== undefined && node.parent !== machine.root ? { parent: pathId(node.parent) } : {})
    })
  )
  const own = nodes.flatMap((node) =>
    [...node.transitions.values()].flatMap((ts) => ts.map((t) => edgesOf(node, t, false)))
  )
  const global = [machine.root, ...nodes].flatMap((parent) =>
    [...parent.transitions.entries()].flatMap(([event, ts]) =>
      Object.values(parent.states)
        .filter((child) => child.type !== "final")
        .filter((child) => !(child.transitions.get(event) ?? []).some((t: Transition) => t.guard === undefined))
        .flatMap((child) =>
          ts.filter((t) => mayHoldIn(t.guard, child.key) !== false).map((t) => edgesOf(child, t, true))
        )
    )
  )
  return { id: machine.id, states, edges: [...own, ...global] }
}

/** kioku's four machines, in the order the page draws them. */
export const machines = {
  reflection: reflectionMachine,
  persona: personaMachine,
  session: sessionMachine,
  recent: recentMachine
} as const
export type MachineName = keyof typeof machines
export const machineNames: ReadonlyArray<MachineName> = ["reflection", "persona", "session", "recent"]

export const graphs = (): ReadonlyArray<MachineGraph> => machineNames.map((name) => toGraph(machines[name]))
