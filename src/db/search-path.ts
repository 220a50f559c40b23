/** Puts a schema on a session's search path (the ORM's connections, and pool clients used directly). */
export const searchPathStatement = (schema: string) => `set search_path to "${schema.replaceAll('"', '""')}"`;
