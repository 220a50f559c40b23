import pg from 'pg';
import type { Orm } from '../kernel/database.js';
import { embeddedDatabase } from '../db/embedded-databases.js';
import { quote } from '../db/statements.js';
import type { Logger } from '../kernel/logger.js';

/** What the outbox's trigger announces of a committed event (the row itself is read by whoever needs it). */
export type EventNotice = { id: string; seq: number; type: string; organizationId: string | null; outcome: string };

type NoticeListener = (notice: EventNotice) => void;
type ResumeListener = () => void;

/** The channel an outbox in `schema` notifies (see the migration's trigger). */
export const eventChannel = (schema: string): string => `domain_event_${schema}`;

/** Waits before listening again after the connection was lost: doubling up to this bound. */
const MAX_RECONNECT_MS = 30_000;

/**
 * This process's ear on the outbox: every event committed by any instance on the database reaches
 * every listener here, once its transaction has committed. On a PostgreSQL server it holds one
 * connection of its own that LISTENs (reconnecting, with backoff, when the database goes away; then
 * `onResume` listeners are told, so they can catch up on what was committed meanwhile); on the embedded
 * database it listens inside the process.
 */
export class EventHub {
  private readonly listeners = new Set<NoticeListener>();
  private readonly resumeListeners = new Set<ResumeListener>();
  private closed = false;
  private client: pg.Client | undefined;
  private retry: NodeJS.Timeout | undefined;
  private unlistenEmbedded: (() => Promise<void>) | undefined;

  private constructor(
    private readonly orm: Orm,
    private readonly logger: Logger,
  ) {}

  static async open(orm: Orm, logger: Logger): Promise<EventHub> {
    const hub = new EventHub(orm, logger);
    await hub.listen();
    return hub;
  }

  /** Calls `listener` with every committed event; answers the function that stops it. */
  on(listener: NoticeListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Calls `listener` each time listening resumes after the connection was lost (events may have been missed). */
  onResume(listener: ResumeListener): () => void {
    this.resumeListeners.add(listener);
    return () => this.resumeListeners.delete(listener);
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retry);
    this.listeners.clear();
    this.resumeListeners.clear();
    await this.unlistenEmbedded?.();
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }

  private get channel(): string {
    return eventChannel(this.orm.config.get('schema') ?? 'public');
  }

  private deliver(payload: string | undefined): void {
    let notice: EventNotice;
    try {
      notice = JSON.parse(payload ?? '') as EventNotice;
    } catch {
      this.logger.warn({ payload }, 'domain event notice unreadable: ignored');
      return;
    }
    for (const listener of this.listeners) {
      try {
        listener(notice);
      } catch (err) {
        this.logger.error({ err, event: notice.id }, 'domain event listener failed');
      }
    }
  }

  private async listen(): Promise<void> {
    const pglite = embeddedDatabase(this.orm);
    if (pglite) {
      this.unlistenEmbedded = await pglite.listen(this.channel, (payload) => this.deliver(payload));
      return;
    }
    await this.connect();
  }

  private async connect(attempt = 0): Promise<void> {
    const client = new pg.Client({ connectionString: this.orm.config.get('clientUrl'), connectionTimeoutMillis: 10_000 });
    client.on('notification', (message) => this.deliver(message.payload));
    // A lost connection: listen again (the pool's connections fail and recover on their own).
    client.on('error', (err) => this.lost(client, err));
    client.on('end', () => this.lost(client, undefined));
    try {
      await client.connect();
      // LISTEN takes no parameters: the channel is a quoted identifier.
      await client.query(`listen ${quote(this.channel)}`);
    } catch (err) {
      await client.end().catch(() => undefined);
      if (attempt === 0 && !this.client) throw err;
      this.scheduleReconnect(attempt + 1, err);
      return;
    }
    if (this.closed) {
      await client.end().catch(() => undefined);
      return;
    }
    const resumed = this.client !== undefined || attempt > 0;
    this.client = client;
    if (resumed) {
      this.logger.info({ channel: this.channel }, 'listening to domain events again');
      for (const listener of this.resumeListeners) listener();
    }
  }

  private lost(client: pg.Client, err: unknown): void {
    if (this.closed || client !== this.client) return;
    this.logger.warn({ err }, 'lost the connection that listens to domain events: reconnecting');
    client.removeAllListeners('end');
    client.end().catch(() => undefined);
    this.scheduleReconnect(1, err);
  }

  private scheduleReconnect(attempt: number, err: unknown): void {
    if (this.closed) return;
    const waitMs = Math.min(250 * 2 ** Math.min(attempt, 10), MAX_RECONNECT_MS);
    if (attempt > 1) this.logger.warn({ err, waitMs }, 'domain events: listening failed, trying again');
    clearTimeout(this.retry);
    this.retry = setTimeout(() => void this.connect(attempt), waitMs);
    this.retry.unref();
  }
}

declare module '../kernel/context.js' {
  interface AppDeps {
    /** This process's ear on the outbox: committed domain events, from every instance. */
    events: EventHub;
  }
}
