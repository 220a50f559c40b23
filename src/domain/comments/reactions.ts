import type { EntityManager } from '@mikro-orm/postgresql';
import sql, { join } from 'sql-template-tag';
import { z } from 'zod';
import { executeReturning } from '../../db/statements.js';
import { newId } from '../../kernel/ids.js';
import { emoji, emojiOfCodePoints } from '../../kernel/emoji.js';
import { CommentReaction, type CommentReactionRow } from './entities.js';

/** At most this many emojis added or removed by one request. */
export const MAX_REACTIONS_PER_REQUEST = 20;

/** A list of reactions: each one emoji (or its hex code point, stored as the emoji itself). */
export const reactionList = z
  .array(
    emoji.transform((value) => emojiOfCodePoints(value) ?? value),
    { error: 'must be a list of emojis' },
  )
  .max(MAX_REACTIONS_PER_REQUEST, { error: `must hold at most ${MAX_REACTIONS_PER_REQUEST} emojis` });

/** What is reacted to: a comment, or one of its replies. */
export type ReactionTarget = { organization: string; space: string; comment: string; reply: string | null };

export type ReactionChange = { added: string[]; removed: string[] };

/**
 * Adds and removes the user's reactions; answers those that really changed (for the event). Adding
 * relies on the unique (target, user, emoji) key, so a repeated or concurrent identical reaction is one
 * row, reported by the request that inserted it; removing a reaction never added deletes nothing.
 */
export async function changeReactions(tx: EntityManager, target: ReactionTarget, user: string, change: ReactionChange, now: Date): Promise<ReactionChange> {
  const id = target.reply ?? target.comment;
  const changed: ReactionChange = { added: [], removed: [] };
  const added = [...new Set(change.added)];
  if (added.length > 0) {
    const rows = added.map((e) => ({ id: newId(), ...target, target: id, user, emoji: e, reactedAt: now }));
    const inserted = await tx
      .createQueryBuilder(CommentReaction)
      .insert(rows)
      .onConflict(['target', 'user', 'emoji'])
      .ignore()
      .returning(['emoji'])
      .execute('all');
    changed.added = (inserted as unknown as { emoji: string }[]).map((row) => row.emoji);
  }
  if (change.removed.length > 0) {
    const emojis = [...new Set(change.removed)];
    const removed = await executeReturning<{ emoji: string }>(
      tx,
      sql`delete from "comment_reaction" where "target" = ${id} and "user" = ${user} and "emoji" in (${join(emojis, ', ')}) returning "emoji"`,
    );
    changed.removed = removed.map((row) => row.emoji);
  }
  return changed;
}

/** One user's reaction with an emoji: the user's id and when they reacted. */
export type ReactionUser = { user: string; reactedAt: Date };

export type ReactionSummary = { emoji: string; count: number; users: ReactionUser[] };

/** The reactions to one target, by emoji in the order each was first used, with who reacted and when. */
export function summarize(reactions: readonly CommentReactionRow[], targetId: string): ReactionSummary[] {
  const byEmoji = new Map<string, ReactionSummary>();
  for (const reaction of reactions) {
    if (reaction.target !== targetId) continue;
    let entry = byEmoji.get(reaction.emoji);
    if (!entry) byEmoji.set(reaction.emoji, (entry = { emoji: reaction.emoji, count: 0, users: [] }));
    entry.count += 1;
    entry.users.push({ user: reaction.user, reactedAt: reaction.reactedAt });
  }
  return [...byEmoji.values()];
}
