/** What a secret part of a logged URL is replaced with. */
export const REDACTED = '[redacted]';

/** Query parameters that carry a secret wherever they appear (names compared case-insensitively). */
const SECRET_PARAMETERS = new Set(['sharekey', 'signature', 'inviteid', 'token', 'access_token', 'samlresponse', 'relaystate']);

/** Query parameters of a GraphQL GET request, whose document and variables may spell any secret. */
const GRAPHQL_PARAMETERS = new Set(['query', 'variables', 'extensions']);

/** Path segments whose next segment is a secret. */
const SECRET_AFTER = new Set(['link-invites']);

const decode = (text: string) => {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
};

/**
 * A URL as logs may show it: every secret a URL of this server can carry becomes `[redacted]`, the
 * rest (path, other parameters) stays readable. Names are compared decoded and case-insensitively,
 * as the routers match them.
 *
 * In paths:
 * - `/v1/orgs/{organizationId}/link-invites/{inviteId}` (GET, PATCH, DELETE): the invite link's id is
 *   its join secret.
 *
 * In query strings, on any path:
 * - `shareKey`: a share link's key, opening a share-link site (`GET /v1/spaces/{spaceId}`, and under
 *   `/v1/orgs/{organizationId}/sites/{siteId}`: `/published`, `/site-spaces`, `/sections`).
 * - `signature`: the signed download URLs `GET /files/{key}/{name}` and `GET /pdf/{spaceId}`.
 * - `inviteId`, `token`, `access_token`, `SAMLResponse`, `RelayState`: read from no query string here,
 *   but a join secret, an API token or a SAML answer (`/saml/{providerId}/acs` takes it in a POST body)
 *   that a client puts in the URL is still a secret.
 * - On `/graphql` (GET queries and the playground): `query`, `variables` and `extensions`, which may
 *   hold any of the above as literals or variables.
 *
 * Absolute URLs (another server's, quoted in an error) lose their user info, every query value and
 * their fragment, since which of their parts are secret is unknown.
 */
export function redactUrl(url: string): string {
  const absolute = /^([a-z][a-z0-9+.-]*:\/\/)([^/?#]*)(.*)$/is.exec(url);
  if (!absolute) return redactTarget(url, false);
  const [, scheme, authority, rest] = absolute;
  const at = authority.lastIndexOf('@');
  return `${scheme}${at < 0 ? authority : `${REDACTED}@${authority.slice(at + 1)}`}${redactTarget(rest, true)}`;
}

/** The text with every absolute URL in it redacted (error messages and stacks that quote one). */
export function redactUrlsIn(text: string): string {
  return text.replace(/\b[a-z][a-z0-9+.-]*:\/\/[^\s"'<>`]+/gi, (url) => redactUrl(url));
}

/** Path, query and fragment of a URL; `everyValue` redacts every query value. */
function redactTarget(target: string, everyValue: boolean): string {
  const hashAt = target.indexOf('#');
  const fragment = hashAt < 0 ? '' : `#${REDACTED}`;
  const beforeFragment = hashAt < 0 ? target : target.slice(0, hashAt);
  const queryAt = beforeFragment.indexOf('?');
  const path = queryAt < 0 ? beforeFragment : beforeFragment.slice(0, queryAt);

  const segments = path.split('/');
  for (let i = 0; i < segments.length - 1; i++) {
    if (SECRET_AFTER.has(decode(segments[i]).toLowerCase()) && segments[i + 1]) segments[i + 1] = REDACTED;
  }
  const redactedPath = segments.join('/');
  if (queryAt < 0) return redactedPath + fragment;

  const graphql = /^\/graphql\/?$/i.test(decode(path));
  const query = beforeFragment
    .slice(queryAt + 1)
    .split('&')
    .map((part) => {
      const equals = part.indexOf('=');
      const name = equals < 0 ? part : part.slice(0, equals);
      const key = decode(name).replace(/\[.*$/, '').toLowerCase();
      const secret = everyValue ? equals >= 0 : SECRET_PARAMETERS.has(key) || (graphql && GRAPHQL_PARAMETERS.has(key));
      return secret ? `${name}=${REDACTED}` : part;
    })
    .join('&');
  return `${redactedPath}?${query}${fragment}`;
}
