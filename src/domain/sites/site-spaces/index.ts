/** The public face of the sites/site-spaces area: what other areas and the wiring may use of it. */
export { SITE_SPACE } from './fragments.js';
export { attachSpace, listSiteSpaces, unpublishSpaces } from './service.js';
export { rememberShareKey } from './share-keys.js';
