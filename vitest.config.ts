/**
 * The main suite: most test files on two workers (the machine has two cores, and most files wait on servers and
 * disks), then the chaos suite alone — its tests compare latencies under faults with calm ones and answer
 * hostile input under load, so nothing else runs beside them.
 */
import { configDefaults, defineConfig } from "vitest/config"

export default defineConfig({
  test: {
    testTimeout: 120_000,
    hookTimeout: 60_000,
    projects: [
      {
        extends: true,
        test: {
          name: "main",
          include: ["test/**/*.test.ts"],
          exclude: [...configDefaults.exclude, "test/chaos/**"],
          maxWorkers: 2,
          sequence: { groupOrder: 0 }
        }
      },
      {
        extends: true,
        test: { name: "chaos", include: ["test/chaos/**/*.test.ts"], maxWorkers: 1, sequence: { groupOrder: 1 } }
      }
    ]
  }
})
