/**
 * The inputs and outputs shared by the memory tasks and their `local` implementations, in a module of their
 * own so that the task services (which wire the implementations) and the implementations never import each other.
 */
import type { Language } from "../domain/Locale.js"

export interface Names {
  readonly master: string
  readonly character: string
}

export interface SummaryInput {
  /** The conversation as "speaker | text" lines. */
  readonly text: string
  readonly detailed: boolean
  readonly language: Language
  readonly staleHint: boolean
  readonly names: Names
}

export interface ReviewMessage {
  readonly role: "system" | "user" | "assistant"
  readonly content: string
}

export interface ReviewInput {
  readonly items: ReadonlyArray<ReviewMessage>
  readonly language: Language
  readonly names: Names
}

export interface ReviewOutput {
  readonly explanation: string
  readonly corrected: ReadonlyArray<{ readonly role: string; readonly content: string }>
}
