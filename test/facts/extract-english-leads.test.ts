import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { checkRows, extract, type Row } from "../support/extraction.js"

const household: ReadonlyArray<Row> = [
  ["Biscuit, our corgi, is scared of thunder.", "Biscuit, Master's corgi, is scared of thunder", "master", "high"],
  ["The kids' hamster is called Nugget.", "Master's kids' hamster is called Nugget", "master", "high"],
  ["The twins start third grade next week.", "Master's twins start third grade next week", "master", "high"],
  [
    "Leo has a hamster called Nugget that lives in his room.",
    "Leo has a hamster called Nugget that lives in his room",
    "master",
    "high"
  ],
  ["Biscuit is absolutely terrified of thunderstorms.", "Biscuit is absolutely terrified of thunderstorms", "master"],
  ["Rachel is a pediatrician in Denver.", "Rachel is a pediatrician in Denver", "master", "mid"],
  // a judgement of someone named, or the listener named, is no fact
  ["Leo is so cute.", null],
  ["Tian is the best.", null]
]

const subjectless: ReadonlyArray<Row> = [
  ["Favourite colour is yellow.", "Master's favourite colour is yellow", "master", "mid"],
  ["Allergic to shellfish, by the way.", "Master is allergic to shellfish, by the way", "master", "high"],
  ["Big fan of spicy Sichuan food.", "Master is a big fan of spicy Sichuan food", "master", "mid"],
  ["Vegetarian since 2015.", "Master is vegetarian since 2015", "master", "high"],
  ["Still working on opening a dance studio.", "Master is still working on opening a dance studio", "master", "mid"],
  ["Researching adoption agencies this month.", "Master is researching adoption agencies this month", "master"],
  ["Just got some new shoes, too!", "Master just got some new shoes, too", "master", "mid"],
  ["Can't wait for the grand opening tomorrow!", "Master can't wait for the grand opening tomorrow", "master", "high"],
  ["Haven't been to Spain yet.", "Master hasn't been to Spain yet", "master", "mid"],
  ["Really miss the old neighbourhood.", "Master really misses the old neighbourhood", "master", "high"],
  // a gerund subject, a reaction or a passing remark keeps its implied subject out of the facts
  ["Creating a home for those kids is so lovely.", null],
  ["Glad to hear it!", null],
  ["Happy to help.", null],
  ["Looking forward to it!", null],
  ["Good to know.", null],
  ["Can't complain.", null],
  ["Sounds fun!", null]
]

const group: ReadonlyArray<Row> = [
  ["We met at a jazz bar in New Orleans.", "Master and others met at a jazz bar in New Orleans", "master", "mid"],
  ["We're moving to Tucson in June.", "Master and others are moving to Tucson in June", "master", "high"],
  ["We took the kids to the zoo.", "Master's family took the kids to the zoo", "master", "high"],
  ["Ines and I got married in Portugal.", "Ines and Master got married in Portugal", "master", "high"],
  ["Me and Ines met at a jazz bar.", "Master and Ines met at a jazz bar", "master", "mid"],
  [
    "It's a big part of my life and I've made good friends there.",
    "It's a big part of Master's life and Master has made good friends there",
    "master"
  ],
  ["Our flight leaves at six tomorrow.", "Master's flight leaves at six tomorrow", "master", "high"],
  [
    "My kids are off school this week. We went to the zoo yesterday.",
    "Master's family went to the zoo yesterday",
    "master",
    "high"
  ]
]

const corrections: ReadonlyArray<Row> = [
  ["Actually it's Tuesdays, not Mondays.", "Master corrected: it's Tuesdays, not Mondays", "master", "mid"],
  ["No wait, the party is on the 14th, not the 12th.", "Master corrected: the party is on the 14th, not the 12th"],
  ["Sorry, I meant Denver, not Dallas.", "Master meant Denver, not Dallas", "master", "mid"],
  // "actually" alone is no correction
  ["Actually the weather is nice.", null]
]

const statementsOpenedByQuestionWords: ReadonlyArray<Row> = [
  [
    "When I was younger, my family and I went on a road trip to Oregon.",
    "When Master was younger, Master's family and Master went on a road trip to Oregon",
    "master",
    "high"
  ],
  ["When do I start?", null],
  [
    "Been up and down lately, got married last week - how about you?",
    "Master has been up and down lately, got married last week",
    "master",
    "high"
  ],
  ["Can't wait to paint with you next Saturday.", "Master can't wait to paint with Tian next Saturday", "relationship"],
  ["Can't wait to see you!", null]
]

const continued: ReadonlyArray<Row> = [
  [
    "I just signed up for a pottery class. It's like therapy for me, letting me get creative.",
    "Master just signed up for a pottery class; it's like therapy for Master, letting Master get creative",
    "master",
    "high"
  ],
  [
    "The kids made bowls at the workshop. They were so excited to get their hands dirty with clay.",
    "Master's kids made bowls at the workshop; they were so excited to get their hands dirty with clay",
    "master",
    "high"
  ],
  // too little of its own to join, and a question ends the run
  ["I went to the beach. It's so hot today.", "Master went to the beach", "master"],
  ["I adopted a puppy. Is it normal that it sleeps all day?", "Master adopted a puppy", "master"]
]

const fillers: ReadonlyArray<Row> = [
  ["hiya, I'm back", null],
  ["ok I'm off to bed", null],
  ["lol same", null],
  ["thanks, you're the best", null],
  ["Gotta run, bye!", null],
  ["hey, good morning!", null],
  ["We'll see.", null],
  ["ok cool, we're good", null]
]

describe("English extraction: implied subjects, households, 'we', corrections", () => {
  it.effect("reads the speaker's household named with 'our' or 'the'", () => checkRows(household))
  it.effect("gives a statement without a subject the speaker as subject", () => checkRows(subjectless))
  it.effect("writes 'we' as the speaker's family or the speaker and others, never invented friends", () =>
    checkRows(group)
  )
  it.effect("reads the character's 'we' as its family when its turn speaks of family, else as the two of them", () =>
    checkRows(
      [
        ["Here's a pic of my family at the beach. We love it there.", "Tian's family love it there", "neko", "high"],
        ["We always have fun in our chats.", "Tian and Master always have fun in their chats", "relationship"]
      ],
      "ai"
    )
  )
  it.effect("keeps a correction with its new value", () => checkRows(corrections))
  it.effect("reads a statement opened by a question word without a question mark", () =>
    checkRows(statementsOpenedByQuestionWords)
  )
  it.effect("joins a sentence that only continues the one before to its fact", () =>
    Effect.gen(function* () {
      yield* checkRows(continued)
      const facts = yield* extract([{ speaker: "human", text: "I went to the beach. It's so hot today." }])
      assert.deepStrictEqual(
        facts.map((f) => f.text),
        ["Master went to the beach"]
      )
    })
  )
  it.effect("makes no fact of greetings, farewells and thanks around a remark", () => checkRows(fillers))
  it.effect("leaves no first-person pronoun in these facts", () =>
    Effect.gen(function* () {
      const rows = [...household, ...subjectless, ...group, ...corrections]
      const facts = yield* extract(rows.map(([text]) => ({ speaker: "human" as const, text })))
      assert.isAtLeast(facts.length, 20)
      for (const f of facts) assert.notMatch(f.text, /\b(I|me|my|mine|myself|we|us|our)\b/i, f.text)
    })
  )
})
