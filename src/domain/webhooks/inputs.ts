import { z } from 'zod';
import { AUDIT_ONLY_EVENT_TYPES, isEventType } from '../../events/types.js';
import { FetchFailure, webUrl } from '../../net/fetch-document.js';
import { text } from '../../kernel/validation.js';

const url = text({ min: 1, max: 2000 }).refine(
  (value) => {
    try {
      webUrl(value);
      return true;
    } catch (error) {
      if (error instanceof FetchFailure) return false;
      throw error;
    }
  },
  { error: 'must be an http or https URL' },
);

const eventTypes = z
  .array(z.string({ error: 'must be a string' }), { error: 'must be a list of event types' })
  .min(1, { error: 'must name at least one event type (or "*")' })
  .max(100, { error: 'must name at most 100 event types' })
  .superRefine((names, check) => {
    const unknown = names.find((name) => name !== '*' && !isEventType(name));
    const auditOnly = names.find((name) => isEventType(name) && AUDIT_ONLY_EVENT_TYPES.has(name));
    if (unknown !== undefined) check.addIssue({ code: 'custom', message: `"${unknown}" is not an event type` });
    else if (auditOnly !== undefined) check.addIssue({ code: 'custom', message: `"${auditOnly}" is kept in the audit log only: it is never delivered` });
    else if (names.includes('*') && names.length > 1) check.addIssue({ code: 'custom', message: '"*" stands for every type: give it alone' });
    else if (new Set(names).size !== names.length) check.addIssue({ code: 'custom', message: 'must not name a type twice' });
  });

const description = text({ max: 500 });

export const CreateWebhookInput = z.object({
  url: url.describe(
    'An http or https URL, at most 2000 characters, that deliveries may reach: a private, loopback or\nlink-local address (or a name resolving to one) is refused unless FETCH_ALLOW_PRIVATE allows it.',
  ),
  eventTypes: eventTypes.describe('Event types of the catalogue, or `["*"]` for all; at least one.'),
  active: z.boolean({ error: 'must be a boolean' }).optional().describe('Default true.'),
  description: description.nullable().optional().describe('At most 500 characters.'),
});

export const UpdateWebhookInput = z.object({
  url: url.optional().describe('As at creation; a new URL is checked the same way.'),
  eventTypes: eventTypes.optional(),
  active: z.boolean({ error: 'must be a boolean' }).optional(),
  description: description.nullable().optional().describe('Null removes it.'),
});
