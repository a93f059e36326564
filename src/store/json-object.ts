/** A JSON object as stored and read back; inputs accept any plain object (interfaces have no index signature). */
export type JsonObject = Record<string, unknown>;
