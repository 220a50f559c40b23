import { z } from 'zod';
import { inputType, shownAs } from '../../kernel/input-types.js';
import { ROLES } from '../../kernel/roles.js';
import { oneOf, text } from '../../kernel/validation.js';

/** An e-mail domain, trimmed and lowercased. */
export const domainName = z
  .string()
  .trim()
  .toLowerCase()
  .max(253, { error: 'must be at most 253 characters' })
  .regex(/^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/, { error: 'must be a domain name such as example.com' });

/** The contract's subdomain pattern, with the organization hostname's 3-32 length. */
const hostname = z
  .string()
  .min(3, { error: 'must be at least 3 characters' })
  .max(32, { error: 'must be at most 32 characters' })
  .regex(/^[a-z0-9][a-z0-9-]{1,30}[a-z0-9]$/, { error: 'must be lowercase letters, digits and inner hyphens' });

const OrganizationFields = {
  title: text({ min: 2, max: 255 }),
  emailDomains: z.array(domainName).max(50, { error: 'must have at most 50 domains' }),
  hostname,
  type: oneOf(['business', 'community']),
  useCase: oneOf([
    'internalDocs',
    'docsSite',
    'audienceControlledSite',
    'productDocs',
    'teamKnowledgeBase',
    'designSystem',
    'openSourceDocs',
    'notes',
    'other',
  ]),
  communityType: oneOf(['nonProfit', 'openSource', 'education']),
};

export const CreateOrganizationInput = z.object({
  title: OrganizationFields.title,
  emailDomains: OrganizationFields.emailDomains.optional(),
  hostname: OrganizationFields.hostname.optional().nullable(),
  type: OrganizationFields.type.optional().nullable(),
  useCase: OrganizationFields.useCase.optional().nullable(),
  communityType: OrganizationFields.communityType.optional().nullable(),
});

export const UpdateOrganizationInput = z.object({
  title: OrganizationFields.title.optional(),
  emailDomains: OrganizationFields.emailDomains.optional(),
  hostname: OrganizationFields.hostname.nullable().optional(),
  defaultRole: shownAs('Role', oneOf(ROLES)).nullable().optional(),
  defaultContent: inputType('SitePointerInput', z.object({ type: z.literal('site', { error: 'must be "site"' }), site: z.string().min(1) }))
    .nullable()
    .optional(),
  logo: z
    .url({ protocol: /^https?$/, error: 'must be an http(s) URL' })
    .max(2048, { error: 'must be at most 2048 characters' })
    .nullable()
    .optional(),
  sso: z.boolean().optional(),
  ai: z.boolean().optional(),
  inviteLinks: z.boolean().optional(),
});
