import sql, { raw, type Sql } from 'sql-template-tag';

/**
 * `column` contains `needle`, ignoring case: the condition of the lists' title and name searches,
 * written for one page read in SQL. Both databases lower-case Unicode (UTF-8 character type).
 */
export function containsIgnoringCase(column: string, needle: string): Sql {
  return sql`strpos(lower(${raw(column)}), ${needle.toLowerCase()}) > 0`;
}
