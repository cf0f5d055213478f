/** `npm run bench -- <name> [options]`: runs one benchmark and prints its figures. */
import { runCluster } from "./cluster.js"
import { runCold } from "./cold.js"
import { runExtract } from "./extract.js"
import { runGguf } from "./gguf.js"
import { runIngest } from "./ingest.js"
import { runNewDialog } from "./newdialog.js"
import { runRecall } from "./recall.js"
import { runScale } from "./scale.js"
import { runVectors } from "./vectors.js"

const [name, ...rest] = process.argv.slice(2)
const benches: Record<string, (args: ReadonlyArray<string>) => Promise<void>> = {
  ingest: runIngest,
  extract: runExtract,
  "new-dialog": runNewDialog,
  recall: runRecall,
  scale: runScale,
  cluster: runCluster,
  cold: runCold,
  vectors: runVectors,
  gguf: runGguf
}
const bench = name === undefined ? undefined : benches[name]
if (bench === undefined) {
  process.stderr.write(`usage: npm run bench -- <${Object.keys(benches).join("|")}>\n`)
  process.exit(2)
}
await bench(rest)
