/** The public face of the saml area: what other areas and the wiring may use of it. */
export { selfSignedCertificate } from './certificates.js';
export { SamlConsumedAssertion, SamlProvider, SamlRequest } from './entities.js';
export { finishLogin, startLogin } from './login.js';
export { signingKey } from './service-provider.js';
export { samlRouter } from './http.js';
