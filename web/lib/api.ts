/**
 * The pages' connection to kioku: the typed client (src/api/Client.ts) on the page's own origin, so the
 * browser's session cookie goes along. Every answer arrives decoded with the route table's Schema, or as a
 * failure with the status and the best error text the body offers (`detail`, `message` or `error`).
 */
import { createClient } from "../../src/api/Client.js"

export const client = createClient()
