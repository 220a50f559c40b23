import { Ajv, type ValidateFunction } from 'ajv';
import { z } from 'zod';
import { text } from '../../kernel/validation.js';

/** One property of a configuration form, as the reference defines it (`button`s hold no value). */
const Property = z.discriminatedUnion(
  'type',
  [
    z.object({ type: z.literal('string'), default: z.string().optional(), completion_url: z.string().optional(), enum: z.array(z.string()).optional() }),
    z.object({ type: z.literal('number'), default: z.number().optional() }),
    z.object({ type: z.literal('boolean'), default: z.boolean().optional() }),
    z.object({ type: z.literal('button'), callback_url: z.string(), button_text: z.string() }),
  ].map((variant) => variant.extend({ title: text({ max: 30 }).optional(), description: text({ max: 100 }).optional() }).strict()) as never,
  { error: 'type: must be one of: string, number, boolean, button' },
) as z.ZodType<ConfigurationProperty>;

type ConfigurationProperty = {
  type: 'string' | 'number' | 'boolean' | 'button';
  title?: string;
  description?: string;
  default?: unknown;
  enum?: string[];
};

/** A configuration form: its properties and which of them are required. */
const ConfigurationSchema = z
  .object({
    properties: z.record(z.string().regex(/^[A-Za-z0-9_-]{1,100}$/, { error: 'property names are letters, digits, _ and -' }), Property),
    required: z.array(z.string()).optional(),
  })
  .strict()
  .superRefine((schema, ctx) => {
    for (const name of schema.required ?? []) {
      if (!(name in schema.properties)) ctx.addIssue({ code: 'custom', path: ['required'], message: `names no property "${name}"` });
    }
    if (new Set(schema.required).size !== (schema.required?.length ?? 0)) ctx.addIssue({ code: 'custom', path: ['required'], message: 'repeats a name' });
  });

/** A configuration made by a ContentKit component of the integration instead of a form. */
const ConfigurationComponent = z.object({ componentId: text({ min: 1, max: 100 }) }).strict();

const Configuration = z.union([ConfigurationSchema, ConfigurationComponent], { error: 'must be {properties, required} or {componentId}' });

/** `configurations` of a published integration: forms (or components) for the account, spaces and sites. */
export const Configurations = z.object({ account: Configuration.optional(), space: Configuration.optional(), site: Configuration.optional() }).strict();
export type ConfigurationsValue = z.infer<typeof Configurations>;

const ajv = new Ajv({ allErrors: false, useDefaults: true, strict: false });

/** A validator of a schema made for one check; ajv forgets it at once (it would keep every schema compiled). */
function validatorOf(schema: object): ValidateFunction {
  const validate = ajv.compile(schema);
  ajv.removeSchema(schema);
  return validate;
}

/** The JSON Schema of a form's values: typed, enumerated, nothing else; `required` only when `complete`. */
function jsonSchemaOf(form: z.infer<typeof ConfigurationSchema>, complete: boolean) {
  const properties: Record<string, unknown> = {};
  for (const [name, property] of Object.entries(form.properties) as [string, ConfigurationProperty][]) {
    if (property.type === 'button') continue;
    properties[name] = {
      type: property.type,
      ...(property.enum ? { enum: property.enum } : {}),
      ...(property.default !== undefined ? { default: property.default } : {}),
    };
  }
  return { type: 'object', properties, additionalProperties: false, ...(complete && form.required?.length ? { required: form.required } : {}) };
}

export type ConfigurationCheck = { problem: string } | { value: Record<string, unknown>; complete: boolean };

/** Which of an integration's forms configures an installation: the account's (organization), a space's or a site's. */
export type ConfigurationForm = keyof ConfigurationsValue;

/**
 * Checks an installation's configuration against one of the integration's forms (the account's unless
 * said): values of the declared types and enums, no undeclared names (defaults filled in). `complete`
 * tells whether every required property is set. A component-made configuration accepts any object;
 * without a form only `{}`.
 */
export function checkConfiguration(
  configurations: ConfigurationsValue,
  value: Record<string, unknown>,
  which: ConfigurationForm = 'account',
): ConfigurationCheck {
  const form = configurations[which];
  if (!form) return Object.keys(value).length ? { problem: 'this integration takes no configuration' } : { value, complete: true };
  if ('componentId' in form) return { value, complete: true };
  const copy = structuredClone(value);
  const shape = validatorOf(jsonSchemaOf(form, false));
  if (!shape(copy)) {
    const error = shape.errors![0];
    const field = error.instancePath.replace(/^\//, '').replaceAll('/', '.');
    const what =
      error.keyword === 'additionalProperties'
        ? `"${(error.params as { additionalProperty: string }).additionalProperty}" is not a property of this integration`
        : error.message;
    return { problem: field ? `${field}: ${what}` : String(what) };
  }
  return { value: copy, complete: validatorOf(jsonSchemaOf(form, true))(structuredClone(copy)) };
}
