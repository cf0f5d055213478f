import { describe, it } from "@effect/vitest"
import { checkRows } from "../support/extraction.js"

describe("Korean, Spanish, Portuguese and Russian extraction", () => {
  it.effect("Korean", () =>
    checkRows([
      ["저는 서울에 살고 있어요.", "Master는 서울에 살고 있어요", "master", "high"],
      ["우리 엄마는 간호사예요.", "Master의 엄마는 간호사예요", "master", "high"],
      ["매일 아침 조깅을 해요.", "Master는 매일 아침 조깅을 해요", "master", "mid"],
      ["고양이 알레르기가 있어요.", "Master는 고양이 알레르기가 있어요", "master", "high"],
      ["안녕하세요!", null],
      ["ㅋㅋㅋ", null],
      ["뭐 먹고 싶어?", null]
    ])
  )

  it.effect("Spanish", () =>
    checkRows([
      [
        "Trabajo como enfermera en un hospital de Madrid.",
        "Master trabaja como enfermera en un hospital de Madrid",
        "master",
        "high"
      ],
      [
        "Mi hermano menor Carlos se mudó a Barcelona.",
        "El hermano menor de Master, Carlos, se mudó a Barcelona",
        "master",
        "high"
      ],
      ["Me encanta el café con leche.", "A Master le encanta el café con leche", "master", "mid"],
      ["Yo no como carne.", "Master no come carne", "master", "high"],
      ["Hola, ¿qué tal?", null],
      ["¡Muchas gracias!", null]
    ])
  )

  it.effect("Portuguese", () =>
    checkRows([
      ["Moro em Lisboa com a minha namorada.", "Master mora em Lisboa com a namorada de Master", "master", "high"],
      ["Eu trabalho como engenheiro.", "Master trabalha como engenheiro", "master", "high"],
      ["Meu gato Tom odeia banho.", "O gato de Master, Tom, odeia banho", "master", "high"],
      ["Bom dia!", null],
      ["Você gosta de música?", null]
    ])
  )

  it.effect("Russian", () =>
    checkRows([
      ["Я живу в Москве.", "Master живёт в Москве", "master", "high"],
      ["Мой младший брат работает врачом.", "Младший брат Master работает врачом", "master", "high"],
      ["Меня зовут Аня.", "Имя Master — Аня", "master", "high"],
      ["Я люблю кататься на лыжах каждую зиму.", "Master любит кататься на лыжах каждую зиму", "master", "mid"],
      ["Привет!", null],
      ["Спасибо!", null],
      ["Как дела?", null]
    ])
  )
})
