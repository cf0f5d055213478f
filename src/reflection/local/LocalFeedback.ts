/**
 * The `local` provider's reading of the user's reaction to surfaced reflections: a denial cue ("no",
 * "that's wrong", "不对", "違う"…) denies, an agreement cue ("yes", "exactly", "对", "そう"…) confirms,
 * anything else is ignored. It cannot tell which reflection a reply is about, so every surfaced reflection
 * gets the same verdict.
 */
const deny =
  /\b(no|nope|wrong|not really|not true|incorrect|that's not)\b|不对|不對|不是的|才不是|违う|違う|ちがう|いいえ|そんなことない/i
const confirm =
  /\b(yes|yeah|yep|right|exactly|true|correct|indeed|absolutely)\b|对|對|是的|没错|沒錯|就是|そう|うん|はい|その通り/i

export const localFeedback = (
  reflections: ReadonlyArray<{ readonly id: string }>,
  userMessages: ReadonlyArray<string>
): Array<{ readonly reflection_id: string; readonly feedback: "confirmed" | "denied" | "ignored" }> => {
  const text = userMessages.join("\n")
  const verdict = deny.test(text) ? "denied" : confirm.test(text) ? "confirmed" : "ignored"
  return reflections.map((r) => ({ reflection_id: r.id, feedback: verdict }))
}
