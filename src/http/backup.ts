import { pipeline } from 'node:stream/promises';
import express, { type Router } from 'express';
import { sendFailure } from './responses.js';
import { authenticate } from '../auth/authenticate.js';
import { dataDirLockOf } from '../db/orm.js';
import { embeddedDatabase } from '../db/embedded-databases.js';
import type { AppDeps } from '../kernel/context.js';
import { isInstanceAdmin } from '../kernel/token-scope.js';
import { DomainError, forbidden, unauthenticated } from '../kernel/errors.js';
import { BACKUP_PATH, packBackup } from '../backup/archive.js';
import { snapshotDatabase } from '../backup/snapshot.js';

const ON_POSTGRESQL = 'This server runs on a PostgreSQL server (DATABASE_URL), which has no embedded database to back up here: use pg_dump (docs/backups.md)';

/**
 * `GET /admin/backup`: a consistent backup of the embedded database, for instance administrators (the
 * admin CLI's `backup` comes here while this server holds the data directory). The answer is streamed
 * from a snapshot of the files (backup/snapshot.ts) as it is read, never held whole in memory. On a PostgreSQL
 * server there is nothing of the kind to send: 404 saying to use pg_dump.
 */
export function backupRouter(deps: AppDeps): Router {
  const router = express.Router();
  router.get(BACKUP_PATH, async (req, res) => {
    let dispose = () => {};
    try {
      const viewer = await authenticate(deps.orm.em.fork(), req.headers.authorization, deps.clock);
      if (!viewer) throw unauthenticated();
      if (!isInstanceAdmin(viewer)) throw forbidden('Only instance administrators may do this');
      const pglite = embeddedDatabase(deps.orm);
      const dataDir = dataDirLockOf(deps.orm)?.dataDir;
      if (!pglite || !dataDir) throw new DomainError('NOT_FOUND', ON_POSTGRESQL);
      const snapshot = await snapshotDatabase(pglite, dataDir);
      const { manifest } = snapshot;
      dispose = snapshot.dispose;
      const stamp = manifest.createdAt.replace(/[:.]/g, '-');
      res.set({
        'content-type': 'application/gzip',
        'content-disposition': `attachment; filename="backup-${stamp}.tar.gz"`,
        'cache-control': 'no-store',
      });
      req.log?.info(
        { snapshot: snapshot.dir, heldMs: Math.round(snapshot.heldMs) },
        'backup: sending a snapshot of the embedded database (statements waited heldMs for it)',
      );
      // A client that goes away ends the stream: the snapshot is removed all the same.
      await pipeline(packBackup(snapshot.dir, manifest), res);
    } catch (error) {
      if (!res.headersSent) sendFailure(req, res, error, deps.logger);
      else if ((error as NodeJS.ErrnoException).code !== 'ERR_STREAM_PREMATURE_CLOSE') req.log?.error({ err: error }, 'backup: the stream failed');
    } finally {
      dispose();
    }
  });
  return router;
}
