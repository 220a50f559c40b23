/**
 * The rows of the areas' tables that the kernel judges (the policy, the viewer, named checks), by entity
 * name. Each area adds its own beside its entities:
 *
 *   declare module '../../kernel/rows.js' { interface Rows { Space: SpaceRow } }
 *
 * so that the kernel names what it reads without importing the areas that own it (as with Loaders).
 */
export interface Rows {}
