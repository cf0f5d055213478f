/** A fact as `facts.json` stores it, for tests that plant a character's facts before the server starts. */
import { textHash } from "../../src/facts/Fact.js"

export const storedFact = (id: string, text: string) => ({
  id,
  text,
  importance: 6,
  entity: "master",
  source: "user_observation",
  hash: textHash(text),
  created_at: "2026-11-30T10:00:00.000000"
})
