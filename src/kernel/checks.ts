import type { Context } from './context.js';
import { forbidden, notFound } from './errors.js';
import type { GuardTarget } from './policy.js';

/*
 * The named permission checks that a guard directive adds to its role (`@requires(…, check: "adminOfBoth")`),
 * and the alternatives that may stand in for the role (`or: "activeShareKey"`). Each is declared once,
 * with its function: the checks every area may name here, an area's own on its manifest (`Area.checks`).
 * Start-up refuses a field naming one that is not declared, that does not judge the field's target or
 * whose arguments the field lacks; the guard runs it (but for a rule enforced in the writing
 * transaction); docs/permissions.md prints its description.
 */

/** What a check judges: the guarded resource (its kind and id) and the field's arguments. */
export type GuardedRequest = { on: GuardTarget; id: string; args: Record<string, unknown> };

type Declared = {
  /** What the permission table says of it, after the role. */
  description: string;
  /** The targets whose guard it may follow. */
  on: readonly GuardTarget[];
  /** The field arguments it reads (`input.parent`: a field of one), besides the guarded resource's id. */
  reads: readonly string[];
};

/**
 * A further check the guard runs after the role check, before the resolver: it throws the operation's
 * 403 (or 404 for what the caller may not see). Where the input it reads names nothing valid it lets the
 * request through, so that the service answers it with its usual 400.
 */
export type GuardCheck = Declared & { run(ctx: Context, request: GuardedRequest): Promise<void> };

/**
 * A rule on the target's state that must hold inside the writing transaction (a check before it would
 * race with a concurrent change): the directive names it and the table lists it, but the guard does not
 * run it: `enforce` is the rule's one function, which the service calls on the row its transaction read.
 */
export type TransactionCheck<Row> = Declared & { enforce(row: Row): void };

/** Whether the guard runs the check (else the service enforces it inside its transaction). */
export const runsInGuard = (check: GuardCheck | TransactionCheck<never>): check is GuardCheck => 'run' in check;

/**
 * An alternative to the role: a caller who holds none on the resource is let in when it `opens` it. Its
 * description is per target (the targets it may stand in on).
 */
export type Alternative = Omit<Declared, 'description' | 'on'> & {
  description: Partial<Record<GuardTarget, string>>;
  opens(ctx: Context, request: GuardedRequest): Promise<boolean>;
};

/** The space or collection the guard judged (it exists: the role check passed). */
async function guardedItem(ctx: Context, { on, id }: GuardedRequest): Promise<{ organization: string; parent?: string | null }> {
  return (on === 'SPACE' ? await ctx.loaders.space.load(id) : await ctx.loaders.collection.load(id))!;
}

/** Whether a parent named in the input is a collection of the organization that the caller sees (else the service answers 400). */
async function isNamedParentValid(ctx: Context, organizationId: string, parentId: string | null): Promise<boolean> {
  if (!parentId) return true;
  const parent = await ctx.policy.visibleCollection(parentId);
  return parent?.organization === organizationId;
}

/** The create role where content goes: the parent collection, or the organization at the top level. */
async function assertCanCreateIn(ctx: Context, organizationId: string, parentId: string | null): Promise<void> {
  if (!(await ctx.policy.canCreateIn(organizationId, parentId))) {
    throw forbidden(
      parentId
        ? 'Creating content in this collection needs the create role on it'
        : 'Creating content at the top level needs the create role in the organization',
    );
  }
}

/** The checks that judge what the kernel knows (roles, parents, organizations), for any area to name. */
export const CHECKS = {
  adminOfBoth: {
    description: 'admin of both organizations',
    on: ['SPACE', 'COLLECTION'],
    reads: ['input.organization'],
    async run(ctx, request) {
      const what = request.on === 'SPACE' ? 'space' : 'collection';
      if ((await ctx.policy.organizationRole((await guardedItem(ctx, request)).organization)) !== 'admin') {
        throw forbidden(`Transferring a ${what} needs the admin role in its organization`);
      }
      const target = (request.args.input as { organization: string }).organization;
      if (!(await ctx.loaders.organization.load(target)) || !(await ctx.policy.isMember(target))) throw notFound('Organization');
      if ((await ctx.policy.organizationRole(target)) !== 'admin') throw forbidden(`Transferring a ${what} needs the admin role in the target organization`);
    },
  },
  canCreateIn: {
    description: 'create on the parent collection, or on the organization at the top level',
    on: ['ORGANIZATION'],
    reads: ['input.parent'],
    async run(ctx, { id, args }) {
      const parent = (args.input as { parent?: string | null }).parent ?? null;
      if (await isNamedParentValid(ctx, id, parent)) await assertCanCreateIn(ctx, id, parent);
    },
  },
  canMoveInto: {
    description: 'create on the target parent, when the parent changes',
    on: ['SPACE', 'COLLECTION'],
    reads: ['input.parent'],
    async run(ctx, request) {
      const parent = (request.args.input as { parent?: string | null }).parent;
      if (parent === undefined) return;
      const item = await guardedItem(ctx, request);
      if (parent === (item.parent ?? null) || !(await isNamedParentValid(ctx, item.organization, parent))) return;
      await assertCanCreateIn(ctx, item.organization, parent);
    },
  },
  canCreateInItsParent: {
    description: "create on the space's parent, where the copy goes",
    on: ['SPACE'],
    reads: [],
    async run(ctx, { id }) {
      const space = (await ctx.loaders.space.load(id))!;
      await assertCanCreateIn(ctx, space.organization, space.parent ?? null);
    },
  },
  readsTheIntegration: {
    description: 'read on the integration',
    on: ['ORGANIZATION'],
    reads: ['integrationName'],
    async run(ctx, { args }) {
      const integration = await ctx.loaders.integration.load(args.integrationName as string);
      if (!integration || (await ctx.policy.integrationRole(integration)) === undefined) throw notFound('Integration');
    },
  },
} satisfies Record<string, GuardCheck>;

export const ALTERNATIVES = {
  activeShareKey: {
    description: { SITE: 'an active share key of the site', SPACE: 'an active share key of a share-link site publishing the space' },
    reads: ['shareKey'],
    async opens(ctx, { on, id, args }) {
      const shareKey = args.shareKey as string | null | undefined;
      if (on === 'SITE') {
        const site = await ctx.loaders.site.load(id);
        return !!site && (await ctx.policy.opensSite(site, shareKey));
      }
      const space = await ctx.loaders.space.load(id);
      return !!space && !space.deletedAt && (await ctx.policy.opensSpace(space, shareKey));
    },
  },
} satisfies Record<string, Alternative>;

/** A check of either kind. */
export type AnyCheck = GuardCheck | TransactionCheck<never>;

/** Every check and alternative a guard may name: the kernel's, and each area's (`Area.checks`). */
export type GuardRegistry = { checks: Readonly<Record<string, AnyCheck>>; alternatives: Readonly<Record<string, Alternative>> };

/** The registry of the kernel's checks and those the areas declare; a name declared twice is refused. */
export function guardRegistry(declared: readonly { name: string; checks?: Readonly<Record<string, AnyCheck>> }[] = []): GuardRegistry {
  const checks: Record<string, AnyCheck> = { ...CHECKS };
  for (const own of declared) {
    for (const [name, check] of Object.entries(own.checks ?? {})) {
      if (Object.hasOwn(checks, name)) throw new Error(`The guard check "${name}" is declared twice`);
      checks[name] = check;
    }
  }
  return { checks, alternatives: ALTERNATIVES };
}

/** The declared check of that name, or undefined. */
export function declaredCheck(registry: GuardRegistry, name: string): AnyCheck | undefined {
  return Object.hasOwn(registry.checks, name) ? registry.checks[name] : undefined;
}

/** The declared alternative of that name, or undefined. */
export function declaredAlternative(registry: GuardRegistry, name: string): Alternative | undefined {
  return Object.hasOwn(registry.alternatives, name) ? registry.alternatives[name] : undefined;
}
