import type { Orm } from '../../kernel/database.js';
import { DomainEvent, type DomainEventRow } from '../../events/entities.js';
import type { EventHub, EventNotice } from '../../events/hub.js';
import type { Logger } from '../../kernel/logger.js';
import { DomainError } from '../../kernel/errors.js';

/** What a subscription wants of the events: one organization's, of some types, about some target. */
export type Interest = {
  organizationId: string;
  takesType(type: string): boolean;
  /** Whether the event (its row, read once) is about what was subscribed to. */
  takesEvent(event: DomainEventRow): boolean;
};

/**
 * Events a stream holds that its consumer has not taken yet. Past it, the stream ends with an error
 * (the client subscribes again): memory stays bounded whatever a slow connection does.
 */
export const MAX_PENDING_EVENTS = 100;

/** One subscription's events, in the order they committed (as the hub heard them). */
export class EventStream implements AsyncIterableIterator<DomainEventRow> {
  private readonly pending: DomainEventRow[] = [];
  private waiting: ((result: IteratorResult<DomainEventRow>) => void) | undefined;
  private failed: ((error: DomainError) => void) | undefined;
  private ended: DomainError | 'done' | undefined;

  constructor(
    readonly interest: Interest,
    private readonly leave: (stream: EventStream) => void,
  ) {}

  /** Called by the feed with an event of the stream's interest. */
  push(event: DomainEventRow): void {
    if (this.ended) return;
    if (this.waiting) {
      const wake = this.waiting;
      this.waiting = this.failed = undefined;
      wake({ value: event, done: false });
    } else if (this.pending.length < MAX_PENDING_EVENTS) {
      this.pending.push(event);
    } else {
      this.end(
        new DomainError(
          'RATE_LIMITED',
          `Events came faster than this subscription read them (more than ${MAX_PENDING_EVENTS} waiting): it ended; subscribe again`,
        ),
      );
    }
  }

  /** Ends the stream: with `error` its consumer gets that error, else it completes (after what it holds). */
  end(error?: DomainError): void {
    if (this.ended) return;
    this.ended = error ?? 'done';
    this.leave(this);
    if (error) this.pending.length = 0;
    const [wake, fail] = [this.waiting, this.failed];
    this.waiting = this.failed = undefined;
    if (error) fail?.(error);
    else wake?.({ value: undefined, done: true });
  }

  next(): Promise<IteratorResult<DomainEventRow>> {
    const event = this.pending.shift();
    if (event) return Promise.resolve({ value: event, done: false });
    if (this.ended instanceof DomainError) return Promise.reject(this.ended);
    if (this.ended) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve, reject) => {
      this.waiting = resolve;
      this.failed = reject;
    });
  }

  /** The consumer stopped (the client completed the subscription or went away). */
  return(): Promise<IteratorResult<DomainEventRow>> {
    this.end();
    this.pending.length = 0;
    return Promise.resolve({ value: undefined, done: true });
  }

  [Symbol.asyncIterator](): this {
    return this;
  }
}

/** At most this many events are read back after listening resumed (streams bound what they hold anyway). */
const CATCH_UP_LIMIT = 1000;
/** Ids of the events handed on lately, so that one both caught up and then heard goes out once. */
const RECENT_IDS = 10_000;

/**
 * The events this process hears (from every instance, through the hub), handed to the live
 * subscriptions that want them. An event's row is read once here whatever the number of its
 * subscribers, and only when one of them wants its type in its organization; rows are read in parallel
 * and handed on in the order the hub heard them. When the hub listens again after losing its
 * connection, the events committed meanwhile are read back from the outbox and handed on.
 */
export class LiveFeed {
  private readonly streams = new Set<EventStream>();
  private readonly stopListening: () => void;
  private readonly stopResuming: () => void;
  private delivered: Promise<void> = Promise.resolve();
  /** The highest sequence number heard: where a catch-up starts. */
  private lastSeq = 0;
  private readonly recent = new Set<string>();

  constructor(
    private readonly orm: Orm,
    hub: EventHub,
    private readonly logger: Logger,
  ) {
    this.stopListening = hub.on((notice) => this.heard(notice));
    this.stopResuming = hub.onResume(() => this.catchUp());
  }

  /** A stream of the events of `interest`, from now on. */
  open(interest: Interest): EventStream {
    const stream = new EventStream(interest, (left) => this.streams.delete(left));
    this.streams.add(stream);
    return stream;
  }

  get openStreams(): number {
    return this.streams.size;
  }

  /** Stops hearing events; every open stream completes. */
  close(): void {
    this.stopListening();
    this.stopResuming();
    for (const stream of [...this.streams]) stream.end();
  }

  private heard(notice: EventNotice): void {
    this.lastSeq = Math.max(this.lastSeq, notice.seq);
    // Refused mutations are the audit log's; only changes that happened go live.
    if (notice.outcome !== 'succeeded' || !notice.organizationId) return;
    const interested = [...this.streams].filter((s) => s.interest.organizationId === notice.organizationId && s.interest.takesType(notice.type));
    if (!interested.length) return;
    const row = this.read(notice.id);
    this.delivered = this.delivered.then(async () => {
      const event = await row;
      if (!event || !this.firstTime(event.id)) return;
      for (const stream of interested) if (stream.interest.takesEvent(event)) stream.push(event);
    });
  }

  /** Hands on the events committed after the last one heard, while the hub was not listening. */
  private catchUp(): void {
    const from = this.lastSeq;
    if (!from || !this.streams.size) return;
    this.delivered = this.delivered.then(async () => {
      let missed: DomainEventRow[];
      try {
        const em = this.orm.em.fork();
        const where = { seq: { $gt: from }, outcome: 'succeeded' };
        missed = await em.find(DomainEvent, where, { orderBy: { seq: 'asc' }, limit: CATCH_UP_LIMIT, disableIdentityMap: true });
      } catch (err) {
        this.logger.warn({ err, fromSeq: from }, 'live subscriptions: events committed while not listening could not be read back');
        return;
      }
      for (const event of missed) {
        this.lastSeq = Math.max(this.lastSeq, event.seq);
        if (!event.organizationId || !this.firstTime(event.id)) continue;
        for (const stream of this.streams) {
          const { interest } = stream;
          if (interest.organizationId === event.organizationId && interest.takesType(event.type) && interest.takesEvent(event)) stream.push(event);
        }
      }
    });
  }

  /** Whether the event is handed on for the first time (and remembers it). */
  private firstTime(id: string): boolean {
    if (this.recent.has(id)) return false;
    this.recent.add(id);
    if (this.recent.size > RECENT_IDS) this.recent.delete(this.recent.values().next().value!);
    return true;
  }

  private async read(id: string): Promise<DomainEventRow | null> {
    try {
      const em = this.orm.em.fork();
      return (await em.findOne(DomainEvent, { id }, { disableIdentityMap: true })) as DomainEventRow | null;
    } catch (err) {
      this.logger.warn({ err, event: id }, 'live subscriptions: could not read a domain event; not delivered');
      return null;
    }
  }
}

declare module '../../kernel/context.js' {
  interface LiveSession {
    /** The process's feed of committed events. */
    feed: LiveFeed;
  }
}
