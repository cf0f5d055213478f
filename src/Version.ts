/** The package version and this process's instance id (reported by `/health`). */
import { randomUUID } from "node:crypto"

export const VERSION = "0.1.0"
export const INSTANCE_ID = randomUUID()
