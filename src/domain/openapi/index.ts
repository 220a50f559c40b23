/** The public face of the openapi area: what other areas and the wiring may use of it. */
export { OpenAPISpec, OpenAPISpecVersion } from './entities.js';
