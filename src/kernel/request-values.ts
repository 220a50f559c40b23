import sql, { Sql } from 'sql-template-tag';
import type { Context } from './context.js';
import { rank } from './roles.js';

/*
 * Values of the request in the read path's SQL (read models' SQL fields and objects, kernel/read-models.ts):
 * shapes are compiled once per document, so their statements carry markers that take the request's
 * values when they run.
 */

/** A value of the request in a shape's SQL: a parameter that `bindRequest` sets when the statement runs. */
class RequestValue {
  constructor(readonly of: (ctx: Context) => unknown) {}
}

/**
 * A parameter of the request (the viewer's user id, the server's public URL): shapes are compiled once
 * per document, and their statements take the request's values when they run.
 */
export const requestValue = (of: (ctx: Context) => unknown): Sql => sql`${new RequestValue(of)}`;

/** The statement with the request's values in place of its request parameters. */
export function bindRequest(statement: Sql, ctx: Context): Sql {
  if (!statement.values.some((value) => value instanceof RequestValue)) return statement;
  return new Sql(
    statement.strings,
    statement.values.map((value) => (value instanceof RequestValue ? value.of(ctx) : value)),
  );
}

/** The request's viewer, by user id (null when anonymous). */
export const VIEWER = requestValue((ctx) => ctx.viewer?.user.id ?? null);
/** The organization the viewer's token is limited to (null: none). */
export const VIEWER_TOKEN_ORGANIZATION = requestValue((ctx) => ctx.viewer?.scope?.organization ?? null);
/** The rank (kernel/roles.ts) of the highest role the viewer's token acts with: that of admin when it has no cap. */
export const VIEWER_TOKEN_ROLE_RANK = requestValue((ctx) => rank(ctx.viewer?.scope?.role ?? 'admin'));
/** The server's public URL. */
export const PUBLIC_URL = requestValue((ctx) => ctx.config.publicUrl);
/** The web app's URL. */
export const APP_URL = requestValue((ctx) => ctx.config.appUrl);
