/**
 * The two names a character's memory speaks of: the user's (`master`, from characters.json or the tunable)
 * and the character's own.
 */
export interface Speakers {
  readonly master: string
  readonly character: string
}
