import type { Context } from '../../../kernel/context.js';
import { validateCondition } from '../index.js';

/** One suggested condition (0.202.0's SiteAdaptiveTemplateCondition). */
export type TemplateCondition = { description: string; condition: string };

/** An attribute of an adaptive schema, as `validateAdaptiveSchema` (service.ts) lets it be stored. */
type Attribute = { type?: unknown; description?: unknown; enum?: unknown; items?: Attribute; properties?: Record<string, Attribute> };

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/** `visitor.claims.plan`, or `visitor.claims["my-plan"]` for a name that is no identifier. */
const accessTo = (names: readonly string[]) =>
  names.reduce((path, name) => (IDENTIFIER.test(name) ? `${path}.${name}` : `${path}[${JSON.stringify(name)}]`), 'visitor.claims');

const enumOf = (attribute: Attribute | undefined): string[] =>
  Array.isArray(attribute?.enum) ? attribute.enum.filter((value): value is string => typeof value === 'string') : [];

/** The templates of one attribute that holds a value (not an object of further attributes). */
function templatesOfValue(names: readonly string[], attribute: Attribute): TemplateCondition[] {
  const access = accessTo(names);
  const about = `${names.join('.')} (${String(attribute.description)})`;
  switch (attribute.type) {
    case 'boolean':
      return [
        { description: `${about} is true`, condition: `${access} == true` },
        { description: `${about} is false`, condition: `${access} == false` },
      ];
    case 'string': {
      const values = enumOf(attribute);
      if (values.length) return values.map((value) => ({ description: `${about} is "${value}"`, condition: `${access} == ${JSON.stringify(value)}` }));
      return [{ description: `${about} is set`, condition: `${access} != null` }];
    }
    case 'number':
      return [{ description: `${about} is set`, condition: `${access} != null` }];
    case 'array': {
      const values = enumOf(attribute.items);
      if (values.length) {
        return values.map((value) => ({ description: `${about} includes "${value}"`, condition: `${access}.includes(${JSON.stringify(value)})` }));
      }
      return [{ description: `${about} is not empty`, condition: `${access}.length > 0` }];
    }
    default:
      return [];
  }
}

/** By attribute name (the stored schema keeps no order of its own: jsonb orders keys its way). */
const byName = ([a]: [string, Attribute], [b]: [string, Attribute]) => (a < b ? -1 : a > b ? 1 : 0);

/** Depth first, by attribute name at each level: an object's attributes are reached through it. */
function templatesOf(properties: Record<string, Attribute> | undefined, above: readonly string[]): TemplateCondition[] {
  return Object.entries(properties ?? {})
    .sort(byName)
    .flatMap(([name, attribute]) => {
      const names = [...above, name];
      return attribute.type === 'object' ? templatesOf(attribute.properties, names) : templatesOfValue(names, attribute);
    });
}

/**
 * Condition templates derived from the site's adaptive schema (0.202.0's
 * listSiteAdaptiveTemplateConditions): per attribute, a boolean gives `== true` and `== false`, a string
 * with `enum` one `== "value"` per value (without, `!= null`: is set), a number `!= null`, an array of
 * strings with `enum` one `.includes("value")` per value (otherwise `.length > 0`); objects are walked
 * into. Each template is a condition that sections and site spaces of the site accept as it stands.
 * A site without an adaptive schema has no attributes, so no templates.
 */
export async function adaptiveTemplateConditions(ctx: Context, siteId: string): Promise<{ items: TemplateCondition[] }> {
  const schema = await ctx.loaders.adaptiveSchema.load(siteId);
  if (!schema) return { items: [] };
  const items = templatesOf((schema.jsonSchema as Attribute).properties, []);
  for (const item of items) validateCondition(item.condition, schema.jsonSchema);
  return { items };
}
