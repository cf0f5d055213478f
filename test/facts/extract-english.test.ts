import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { checkRows, extract, type Row } from "../support/extraction.js"

const statements: ReadonlyArray<Row> = [
  [
    "My younger brother Kenta moved to Fukuoka for a job at a shipyard.",
    "Master's younger brother Kenta moved to Fukuoka for a job at a shipyard",
    "master",
    "high"
  ],
  ["My cat Mochi hates the vacuum cleaner.", "Master's cat Mochi hates the vacuum cleaner", "master", "high"],
  ["I adopted a cat named Mochi last week.", "Master adopted a cat named Mochi last week", "master", "high"],
  ["I live in Kyoto now, I moved from Osaka.", "Master lives in Kyoto now, Master moved from Osaka", "master", "high"],
  [
    "I'm allergic to peanuts, so I always check labels.",
    "Master is allergic to peanuts, so Master always checks labels",
    "master",
    "high"
  ],
  ["I don't eat meat.", "Master doesn't eat meat", "master", "high"],
  ["I've had asthma since I was a kid.", "Master has had asthma since Master was a kid", "master", "high"],
  [
    "I'll visit my grandma in Sapporo next month.",
    "Master will visit Master's grandma in Sapporo next month",
    "master",
    "high"
  ],
  ["I was born in Nagoya.", "Master was born in Nagoya", "master", "high"],
  [
    "I'm a software engineer at a small startup in Berlin.",
    "Master is a software engineer at a small startup in Berlin",
    "master",
    "high"
  ],
  ["My parents are both teachers.", "Master's parents are both teachers", "master", "high"],
  ["Call me Alex.", "Master wants to be called Alex", "master", "high"],
  [
    "I usually drink green tea instead of coffee.",
    "Master usually drinks green tea instead of coffee",
    "master",
    "mid"
  ],
  ["I'm not a big fan of horror movies.", "Master is not a big fan of horror movies", "master", "mid"],
  ["I go jogging every morning before work.", "Master goes jogging every morning before work", "master"],
  ["I knit and sew every evening.", "Master knits and sews every evening", "master", "mid"],
  ["I love to cook and bake.", "Master loves to cook and bake", "master", "mid"],
  ["I had ramen for lunch.", "Master had ramen for lunch", "master", "low"],
  ["I watched a movie last night.", "Master watched a movie last night", "master", "low"],
  ["I quit my job last year.", "Master quit Master's job last year", "master", "high"],
  [
    "We should watch a movie together sometime.",
    "Master and Tian should watch a movie together sometime",
    "relationship"
  ],
  ["I love you, Tian.", "Master loves Tian", "relationship"],
  ["Oh wow, honestly I think I'll quit smoking next month.", "Master will quit smoking next month", "master", "high"],
  [
    "I'm going to Paris with my mom, have you ever been?",
    "Master is going to Paris with Master's mom",
    "master",
    "high"
  ],
  ["Please don't mention my ex again.", "Master does not want to talk about Master's ex", "master", "high"],
  [
    "Gonna visit my grandma in Osaka next week.",
    "Master is going to visit Master's grandma in Osaka next week",
    "master",
    "high"
  ],
  ["Went hiking with my kids last weekend!", "Master went hiking with Master's kids last weekend", "master", "high"],
  ["Been learning French for a year now.", "Master has been learning French for a year now", "master", "mid"],
  [
    "Remember that my sister's wedding is on June 3rd.",
    "Master asked Tian to remember: Master's sister's wedding is on June 3rd",
    "master",
    "high"
  ]
]

const fillers: ReadonlyArray<Row> = [
  ["Hi, I'm back from work!", null],
  ["Thanks Tian!", null],
  ["Haha, that's so funny.", null],
  ["I see!", null],
  ["OK", null],
  ["Good night!", null],
  ["What do you like to eat?", null],
  ["Do you remember my sister's name?", null],
  ["It's raining today.", null],
  ["I'm tired.", null],
  ["I'm so happy for you!", null],
  ["I think that's great.", null],
  ["That sounds amazing!", null],
  ["I'm going to bed now.", null],
  ["Playing guitar is fun.", null],
  ["Thanks for the tip!", null]
]

const firstPerson = /\b(I|me|my|mine|myself|we|us|our)\b/i

describe("English extraction", () => {
  it.effect("turns statements about the master's life into third-person facts", () => checkRows(statements))

  it.effect("makes no fact of greetings, thanks, laughter, questions and passing remarks", () => checkRows(fillers))

  it.effect("leaves no first-person pronoun in any fact", () =>
    Effect.gen(function* () {
      const facts = yield* extract(statements.map(([text]) => ({ speaker: "human" as const, text })))
      for (const f of facts) assert.notMatch(f.text, firstPerson, f.text)
    })
  )

  it.effect("keeps each sentence of a multi-sentence turn and dates it", () =>
    Effect.gen(function* () {
      const facts = yield* extract([
        {
          speaker: "human",
          text: "Hey Tian! I ran my first full marathon in Kyoto last month. My legs still hurt lol. How are you?"
        }
      ])
      const marathon = facts.find((f) => f.text === "Master ran Master's first full marathon in Kyoto last month")
      assert.deepStrictEqual(marathon?.event_when, { start: { offset: -1, unit: "month" }, end: null })
      assert.include(
        facts.map((f) => f.text),
        "Master's legs still hurt"
      )
      assert.strictEqual(facts.length, 2)
    })
  )

  it.effect("reads the character's self-disclosures with the character as subject and the master as 'you'", () =>
    checkRows(
      [
        ["I love rainy days.", "Tian loves rainy days", "neko", "mid"],
        ["My favorite color is lavender.", "Tian's favorite color is lavender", "neko", "mid"],
        [
          "I will remind you about the vet on Friday!",
          "Tian will remind Master about the vet on Friday",
          "relationship"
        ],
        ["How was your day?", null],
        ["I hope you sleep well.", null]
      ],
      "ai"
    )
  )

  it.effect("marks the character's facts as its own disclosures", () =>
    Effect.gen(function* () {
      const [fact] = yield* extract([{ speaker: "ai", text: "I have a little sister who paints." }])
      assert.deepStrictEqual(
        [fact?.text, fact?.source, fact?.entity],
        ["Tian has a little sister who paints", "ai_disclosure", "neko"]
      )
    })
  )
})
