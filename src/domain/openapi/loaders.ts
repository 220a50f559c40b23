import type { EntityManager } from '@mikro-orm/postgresql';
import { groupLoader } from '../../graphql/loader.js';
import { OpenAPISpec } from './entities.js';

export function openAPILoaders(em: EntityManager) {
  return {
    /** OpenAPI specifications of each organization, oldest first. */
    openAPISpecsByOrganization: groupLoader(
      (organizationIds: string[]) =>
        em.find(OpenAPISpec, { organization: { $in: organizationIds } }, { orderBy: { createdAt: 'asc', id: 'asc' } }),
      (spec) => spec.organization,
    ),
  };
}
