/** The public face of the urls area: what other areas and the wiring may use of it. */
export { parseUrl } from './addresses.js';
