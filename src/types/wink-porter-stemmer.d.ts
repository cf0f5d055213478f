/** The Porter2 stemmer shipped inside wink-eng-lite-web-model (a CommonJS function of one word). */
declare module "wink-eng-lite-web-model/dist/porter-stemmer.js" {
  const stem: (word: string) => string
  export default stem
}
