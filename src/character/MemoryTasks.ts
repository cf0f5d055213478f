/**
 * Every feature's model-backed tasks over one shared TaskKit (one chat port, one wink-nlp load): the layer a
 * character's actor needs. Each feature asks for its own tag; only this module knows them all.
 */
import { Layer } from "effect"
import { FactTasks } from "../facts/FactTasks.js"
import { TaskKit } from "../llm/TaskKit.js"
import { PersonaTasks } from "../persona/PersonaTasks.js"
import { RecentTasks } from "../recent/RecentTasks.js"
import { ReflectionTasks } from "../reflection/ReflectionTasks.js"

export type MemoryTasks = RecentTasks | FactTasks | ReflectionTasks | PersonaTasks

export const memoryTasks = Layer.mergeAll(
  RecentTasks.layer,
  FactTasks.layer,
  ReflectionTasks.layer,
  PersonaTasks.layer
).pipe(Layer.provide(TaskKit.layer))
