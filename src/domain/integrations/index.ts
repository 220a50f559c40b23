/** The public face of the integrations area: what other areas and the wiring may use of it. */
export { Integration } from './entities.js';
export type { IntegrationRow } from './entities.js';
export { openSecrets } from './secrets.js';
