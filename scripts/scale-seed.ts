import type { EntityManager } from '@mikro-orm/postgresql';
import { newId } from '../src/kernel/ids.js';

/*
 * Seeding at scale for `bench:scale`: a few rows are made through the API (so they are what the product
 * makes), then copied in SQL with `insert … select … from generate_series`. Each copy keeps every column
 * of its template row but those it must change: new ids (prefix + number, so that copies of related
 * tables reference each other by the same number), the organization of the template, positions that
 * sort after the template's and stay valid fractional keys, unique paths, numbers and e-mails, and
 * creation times a millisecond apart. Columns added later are copied as they are; a table derived from
 * these rows (a counter, an index) would need seeding here too.
 */

/** Copies per statement: each insert stays a transaction of moderate size. */
const CHUNK = 25_000;

const literal = (value: string) => `'${value.replaceAll("'", "''")}'`;

/** Ids of copies: 12 random characters and the copy's number in 8 digits (20 characters, as newId). */
export class IdSeries {
  readonly prefix = newId().slice(0, 12);
  /** The SQL expression of copy `g`'s id. */
  get sql(): string {
    return `${literal(this.prefix)} || lpad(g::text, 8, '0')`;
  }
  /** The id of copy `g`. */
  at(g: number): string {
    return `${this.prefix}${String(g).padStart(8, '0')}`;
  }
}

/** SQL expressions over the template row `t` and the copy number `g`. */
export const copied = {
  /** A fractional position after the template's and before its next sibling, in copy order. */
  position: `t."position" || lpad(g::text, 8, '0') || 'V'`,
  /** A creation (or any) time a millisecond per copy after the template's. */
  later: (column: string) => `t."${column}" + g * interval '1 millisecond'`,
  /** The template's text with the copy's number appended (unique paths, titles told apart). */
  numbered: (column: string, separator = '-') => `t."${column}" || '${separator}' || g`,
};

export class Seeder {
  private readonly columns = new Map<string, string[]>();
  constructor(private readonly em: () => EntityManager) {}

  async sql<T = Record<string, unknown>>(text: string, parameters: unknown[] = []): Promise<T[]> {
    return this.em().getConnection().execute<T[]>(text, parameters);
  }

  /** The table's stored columns, in order. */
  private async columnsOf(table: string): Promise<string[]> {
    let columns = this.columns.get(table);
    if (!columns) {
      const rows = await this.sql<{ name: string }>(
        `select column_name as name from information_schema.columns
         where table_schema = current_schema() and table_name = ? and is_generated = 'NEVER' order by ordinal_position`,
        [table],
      );
      columns = rows.map((row) => row.name);
      this.columns.set(table, columns);
    }
    return columns;
  }

  /**
   * Inserts `count` copies (numbered 1…count) of the row of `table` that `where` selects (over alias t,
   * one row), every column as it is but the `overrides` (SQL over t and g).
   */
  async copy(table: string, where: string, count: number, overrides: Record<string, string>): Promise<void> {
    const columns = await this.columnsOf(table);
    for (const name of Object.keys(overrides)) if (!columns.includes(name)) throw new Error(`${table}.${name}: no such column`);
    const list = columns.map((c) => `"${c}"`).join(', ');
    const values = columns.map((c) => overrides[c] ?? `t."${c}"`).join(', ');
    for (let from = 1; from <= count; from += CHUNK) {
      const to = Math.min(count, from + CHUNK - 1);
      await this.sql(`insert into "${table}" (${list}) select ${values} from "${table}" t, generate_series(${from}, ${to}) g where ${where}`);
    }
  }

  /**
   * Copies of a space made through the API, each with a revision of its own (a copy of the space's),
   * ordered after it among its siblings. Answers the ids of the copies.
   */
  async copySpaces(templateSpaceId: string, count: number): Promise<IdSeries> {
    const spaces = new IdSeries();
    const revisions = new IdSeries();
    await this.copy('space', `t."id" = ${literal(templateSpaceId)}`, count, {
      id: spaces.sql,
      title: copied.numbered('title', ' '),
      position: copied.position,
      revision: revisions.sql,
      created_at: copied.later('created_at'),
      updated_at: copied.later('updated_at'),
    });
    await this.copy('revision', `t."id" = (select "revision" from "space" where "id" = ${literal(templateSpaceId)})`, count, {
      id: revisions.sql,
      space_id: spaces.sql,
      created_at: copied.later('created_at'),
    });
    return spaces;
  }

  /** Copies of a change request, each with copies of the revisions it names (same numbers). */
  async copyChangeRequests(templateId: string, count: number): Promise<void> {
    const [template] = await this.sql<Record<string, string | null>>(`select * from "change_request" where "id" = ?`, [templateId]);
    if (!template) throw new Error(`no change request ${templateId}`);
    const changeRequests = new IdSeries();
    const revisionColumns = Object.keys(template).filter((c) => c.startsWith('revision') && template[c]);
    const seriesOf = new Map<string, IdSeries>();
    for (const column of revisionColumns) if (!seriesOf.has(template[column]!)) seriesOf.set(template[column]!, new IdSeries());
    await this.copy('change_request', `t."id" = ${literal(templateId)}`, count, {
      id: changeRequests.sql,
      number: `t."number" + g`,
      subject: copied.numbered('subject', ' '),
      created_at: copied.later('created_at'),
      updated_at: copied.later('updated_at'),
      ...Object.fromEntries(revisionColumns.map((c) => [c, seriesOf.get(template[c]!)!.sql])),
    });
    const revisionOverrides = await this.columnsOf('revision');
    for (const [revisionId, series] of seriesOf) {
      await this.copy('revision', `t."id" = ${literal(revisionId)}`, count, {
        id: series.sql,
        created_at: copied.later('created_at'),
        ...(revisionOverrides.includes('change_request')
          ? { change_request: `case when t."change_request" = ${literal(templateId)} then ${changeRequests.sql} else t."change_request" end` }
          : {}),
      });
    }
  }

  /** Copies of a comment. */
  async copyComments(templateId: string, count: number): Promise<void> {
    await this.copy('comment', `t."id" = ${literal(templateId)}`, count, { id: new IdSeries().sql, posted_at: copied.later('posted_at') });
  }

  /** Copies of a collection, after it among its siblings. */
  async copyCollections(templateId: string, count: number): Promise<void> {
    await this.copy('collection', `t."id" = ${literal(templateId)}`, count, {
      id: new IdSeries().sql,
      title: copied.numbered('title', ' '),
      position: copied.position,
      created_at: copied.later('created_at'),
      updated_at: copied.later('updated_at'),
    });
  }

  /** Copies of a site space (at its place in the site), each publishing a copy of its space. */
  async copySiteSpaces(templateId: string, count: number): Promise<void> {
    const [template] = await this.sql<{ space_id: string }>(`select "space_id" from "site_space" where "id" = ?`, [templateId]);
    const spaces = await this.copySpaces(template.space_id, count);
    await this.copy('site_space', `t."id" = ${literal(templateId)}`, count, {
      id: new IdSeries().sql,
      space_id: spaces.sql,
      path: copied.numbered('path'),
      position: copied.position,
      created_at: copied.later('created_at'),
    });
  }

  /** Copies of a site section, each with a copy of its (one) site space publishing a copy of its space. */
  async copySiteSections(templateId: string, count: number): Promise<void> {
    const [siteSpace] = await this.sql<{ id: string; space_id: string }>(`select "id", "space_id" from "site_space" where "section_id" = ?`, [templateId]);
    if (!siteSpace) throw new Error(`section ${templateId} has no site space`);
    const spaces = await this.copySpaces(siteSpace.space_id, count);
    const sections = new IdSeries();
    const siteSpaces = new IdSeries();
    await this.copy('site_section', `t."id" = ${literal(templateId)}`, count, {
      id: sections.sql,
      title: copied.numbered('title', ' '),
      path: copied.numbered('path'),
      position: copied.position,
      default_site_space: siteSpaces.sql,
      created_at: copied.later('created_at'),
    });
    await this.copy('site_space', `t."id" = ${literal(siteSpace.id)}`, count, {
      id: siteSpaces.sql,
      section_id: sections.sql,
      space_id: spaces.sql,
      created_at: copied.later('created_at'),
    });
  }

  /** Copies of a member of an organization, each a new user (a copy of the member's, with its own e-mail). */
  async copyMembers(organizationId: string, templateUserId: string, count: number): Promise<void> {
    const users = new IdSeries();
    await this.copy('app_user', `t."id" = ${literal(templateUserId)}`, count, {
      id: users.sql,
      email: `'member-' || lower(${literal(users.prefix)}) || '-' || g || '@example.com'`,
      created_at: copied.later('created_at'),
    });
    await this.copy('member', `t."organization_id" = ${literal(organizationId)} and t."user_id" = ${literal(templateUserId)}`, count, {
      user_id: users.sql,
      joined_at: copied.later('joined_at'),
    });
  }
}
