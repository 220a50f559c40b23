import { ArrayType, type Platform, type TransformContext } from '@mikro-orm/core';

/**
 * A `text[]` column that holds any strings. MikroORM writes arrays as PostgreSQL array literals, quoting
 * only values with a quote, brace, comma or backslash, and escaping as JSON does: a value with a space
 * at either end, `NULL`, or a control character came back changed or failed the statement ("malformed
 * array literal"). Here every value is quoted, with the array syntax's own escapes.
 */
export class TextArrayType extends ArrayType<string> {
  override convertToDatabaseValue(value: string[] | null, platform: Platform, context?: TransformContext): string | null {
    if (Array.isArray(value)) return `{${value.map(quoted).join(',')}}`;
    return super.convertToDatabaseValue(value, platform, context);
  }
}

const quoted = (value: string) => `"${value.replace(/[\\"]/g, '\\$&')}"`;
