import type { EntityManager } from '@mikro-orm/postgresql';
import type { Response } from 'express';
import type { Viewer } from '../kernel/viewer.js';

/**
 * A request's token, resolved once: a step before the door that needs the viewer itself (the
 * idempotency keys, whose records are the user's) hands the door the viewer it found, and the
 * EntityManager it read it on (which knows the user's last write position, db/read-routing.ts), so
 * that the door builds its context on them and does not look the token up again.
 */
export type AuthenticatedRequest = { em: EntityManager; viewer: Viewer };

const handedOver = new WeakMap<Response, AuthenticatedRequest>();

/** Hands the door of `res`'s request the viewer a step before it authenticated. */
export function handOverAuthentication(res: Response, authenticated: AuthenticatedRequest): void {
  handedOver.set(res, authenticated);
}

/** The viewer a step before the door authenticated for `res`'s request, if one did. */
export const authenticationOf = (res: Response): AuthenticatedRequest | undefined => handedOver.get(res);
