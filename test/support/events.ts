import { DomainEvent, type DomainEventRow } from '../../src/events/entities.js';
import { recordServerEvent } from '../../src/events/record.js';
import type { EventNotice } from '../../src/events/hub.js';
import type { TestServer } from './server.js';

/**
 * The changes announced for `organizationId` after `afterSeq` (default: all), oldest first: the events
 * that succeeded (refused mutations, which the audit log keeps in the same table, are left out).
 */
export async function eventsOf(server: TestServer, organizationId: string, afterSeq = 0): Promise<DomainEventRow[]> {
  const em = server.deps.orm.em.fork();
  return await em.find(DomainEvent, { organizationId, outcome: 'succeeded', seq: { $gt: afterSeq } }, { orderBy: { seq: 'asc' } });
}

/** Records `count` events of the server's own (`team.created`, about teams `team-0`, `team-1`, …) in the organization, oldest first. */
export async function recordTeamEvents(server: TestServer, organizationId: string, count: number): Promise<DomainEventRow[]> {
  const em = server.em().fork();
  const recorded = Array.from({ length: count }, (_, i) =>
    recordServerEvent(em, server.clock, { type: 'team.created', organizationId, target: { teamId: `team-${i}` }, payload: {} }),
  );
  await em.flush();
  return recorded;
}

/** The highest event sequence number so far (0 with none): what came after it is what a test did. */
export async function lastEventSeq(server: TestServer): Promise<number> {
  const em = server.deps.orm.em.fork();
  const [row] = await em.getConnection().execute<{ seq: string | null }[]>('select max(seq) as seq from domain_event');
  return Number(row?.seq ?? 0);
}

/** Collects the notices the server's event hub hears, until `stop()`. */
export function collectNotices(server: TestServer) {
  const notices: EventNotice[] = [];
  const stop = server.deps.events.on((notice) => notices.push(notice));
  /** Resolves once a notice matching `test` arrived (or rejects after `timeoutMs`). */
  const waitFor = async (test: (notice: EventNotice) => boolean, timeoutMs = 5000): Promise<EventNotice> => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = notices.find(test);
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`no matching event notice within ${timeoutMs} ms (heard ${notices.map((n) => n.type).join(', ') || 'none'})`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  };
  return { notices, stop, waitFor };
}
