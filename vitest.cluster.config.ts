import { defineConfig } from "vitest/config"

// The multi-runner cluster tests (test/cluster/*.cluster.ts): several runner processes each, one file at a time.
export default defineConfig({
  test: {
    include: ["test/cluster/**/*.cluster.ts"],
    fileParallelism: false,
    testTimeout: 180_000,
    hookTimeout: 60_000
  }
})
