import { assert, describe, it } from "@effect/vitest"
import { textLanguage } from "../../src/domain/TextLanguage.js"

describe("textLanguage", () => {
  it("tells the language by script, then by stop words for Latin text", () => {
    const cases: ReadonlyArray<readonly [string, ReturnType<typeof textLanguage>]> = [
      ["猫のミケは窓際で昼寝するのが好き", "ja"],
      ["東京タワー", "ja"],
      ["我对猫毛过敏，所以不能养猫", "zh"],
      ["我對貓毛過敏", "zh"],
      ["저는 서울에 살고 있어요", "ko"],
      ["Я живу в Москве", "ru"],
      ["Me encanta el café con leche y los churros", "es"],
      ["¿Dónde está la estación?", "es"],
      ["Eu moro em Lisboa com a minha namorada", "pt"],
      ["Não sei, você está bem?", "pt"],
      ["My cat Mochi hates the vacuum cleaner", "en"],
      ["I love 寿司 so much, it is the best food", "en"],
      ["Kyoto", "en"],
      ["مرحبا بك", "other"],
      ["12345 !!", "other"]
    ]
    for (const [text, lang] of cases) assert.strictEqual(textLanguage(text), lang, text)
  })
})
