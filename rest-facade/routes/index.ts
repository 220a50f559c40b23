import type { Route } from '../route.js';
import { areas } from '../../src/areas.js';

/**
 * Every routed REST operation: the areas' (src/domain/<area>/routes.ts) in the order of src/areas.ts.
 * An operation of the contract that is not here answers 404.
 */
export const routes: Route[] = areas.flatMap((area) => ('routes' in area ? area.routes : []));
