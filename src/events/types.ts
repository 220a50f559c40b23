/**
 * Every kind of domain event: `<resource>.<change>` and what it means. Webhook endpoints subscribe to
 * these names (or to `*`), the audit log filters by them, the API reference lists them. A type is added
 * here before any code records it (`recordEvent` takes only these names).
 */
export const EVENT_TYPES = {
  'organization.created': 'An organization was created.',
  'organization.updated': "An organization's settings changed.",

  'member.joined': 'A user joined the organization (an invite or SSO).',
  'member.updated': "A member's role changed.",
  'member.removed': 'A member left or was removed from the organization.',
  'user.updated': "A member's profile changed (display name, photo): one event in each organization the user is a member of.",
  'invite.created': 'An invite link to the organization, a space or a collection was created.',
  'invite.updated': "An invite link's role (or level on its content) changed.",
  'invite.deleted': 'An invite link was withdrawn.',

  'team.created': 'A team was created.',
  'team.updated': 'A team was renamed.',
  'team.deleted': 'A team was deleted.',
  'team.members_changed': "A team's members were added or removed.",

  'permission.granted': 'A user or team was given a role on a space or collection.',
  'permission.revoked': "A user's or team's role on a space or collection was removed.",

  'collection.created': 'A collection was created.',
  'collection.updated': 'A collection changed (title, description, visibility, ...).',
  'collection.deleted': 'A collection was deleted.',
  'collection.moved': 'A collection moved to another parent or position.',
  'collection.transferred': 'A collection moved to another organization.',

  'space.created': 'A space was created (also by duplication).',
  'space.updated': 'A space changed (title, visibility, ...).',
  'space.deleted': 'A space was deleted (it can be restored for a while).',
  'space.restored': 'A deleted space was restored.',
  'space.moved': 'A space moved to another collection or position.',
  'space.transferred': 'A space moved to another organization.',

  'change_request.opened': 'A change request was opened.',
  'change_request.updated': "A change request's subject or description changed.",
  'change_request.status_changed': 'A change request was submitted, approved, closed or reopened.',
  'change_request.merged': 'A change request was merged into its space.',

  'content.edited': 'Content of a space or change request was edited (one event per revision).',

  'comment.posted': 'A comment was posted.',
  'comment.edited': "A comment's body changed.",
  'comment.resolved': 'A comment was resolved.',
  'comment.reopened': 'A resolved comment was reopened.',
  'comment.deleted': 'A comment was deleted.',
  'comment.reacted': 'Reactions to a comment were added or removed.',
  'comment_reply.posted': 'A reply to a comment was posted.',
  'comment_reply.edited': "A reply's body changed.",
  'comment_reply.deleted': 'A reply was deleted.',
  'comment_reply.reacted': 'Reactions to a reply were added or removed.',

  'site.created': 'A site was created.',
  'site.updated': "A site's settings changed (title, visibility, customization, ...).",
  'site.deleted': 'A site was deleted.',
  'site.published': 'A site was published.',
  'site.unpublished': 'A site was unpublished.',
  'site.structure_changed': "A site's sections, section groups or site spaces were added, changed, moved or removed.",
  'share_link.created': 'A share link of a site was created.',
  'share_link.updated': 'A share link changed.',
  'share_link.deleted': 'A share link was deleted.',

  'translation.created': 'A translation of a space was set up.',
  'translation.updated': 'A translation changed.',
  'translation.deleted': 'A translation was removed.',

  'openapi_spec.created': 'An OpenAPI spec was stored.',
  'openapi_spec.updated': "An OpenAPI spec's source or visibility changed.",
  'openapi_spec.processed': 'An OpenAPI spec version was processed.',
  'openapi_spec.deleted': 'An OpenAPI spec was deleted.',

  'integration.published': 'An integration was published (or a new version of it).',
  'integration.unpublished': 'An integration was unpublished (its installations went with it).',
  'integration.installed': 'An integration was installed in an organization.',
  'integration.updated': "An integration's installation changed (configuration, spaces, sites).",
  'integration.uninstalled': 'An integration was uninstalled.',

  'saml.updated': "The organization's SAML single sign-on settings changed.",

  'webhook.created': 'A webhook endpoint was created.',
  'webhook.updated': 'A webhook endpoint changed (also when it is disabled after failures).',
  'webhook.deleted': 'A webhook endpoint was deleted.',

  'mutation.refused': 'A mutation was refused (outcome denied or rejected): it changed nothing. Audit log only.',
} as const;

export type EventType = keyof typeof EVENT_TYPES;

export const isEventType = (name: string): name is EventType => Object.hasOwn(EVENT_TYPES, name);

/**
 * Types that only the audit log lists: their outcome is never `succeeded` (nothing changed), so webhooks
 * and subscriptions never deliver them (they skip every event whose outcome is not `succeeded`).
 */
export const AUDIT_ONLY_EVENT_TYPES: ReadonlySet<EventType> = new Set<EventType>(['mutation.refused']);

/** How the audit log calls a mutation that changed nothing: refused for lack of access, or for its input. */
export type RefusedOutcome = 'denied' | 'rejected';
