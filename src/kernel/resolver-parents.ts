/**
 * The value each GraphQL object type's resolvers receive as their parent, by type name: the row an area
 * reads for it. Each area declares its own beside its resolvers:
 *
 *   declare module '../../kernel/resolver-parents.js' { interface ResolverParents { Space: SpaceRow } }
 *
 * The generated resolver types (schema-types.generated.ts) read it, so a resolver typed by its SDL also
 * knows its parent; a type no area declares has the SDL's own shape as its parent.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by the areas' declarations
export interface ResolverParents {}

/** The declared parent of a type, else its SDL shape. */
export type ParentOf<TypeName extends string, SdlShape> = TypeName extends keyof ResolverParents ? ResolverParents[TypeName] : SdlShape;
