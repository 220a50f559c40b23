import { fromMarkdown } from 'mdast-util-from-markdown';
import type { Nodes } from 'mdast';
import { parse as parseYaml } from 'yaml';
import { badRequest } from '../../kernel/errors.js';
import { plainText } from './markdown.js';

/*
 * Markdown sent in a batch of content changes (updateChangeRequestContent), read as 0.202.0 describes:
 * its frontmatter sets page metadata, the leading heading of a new page can be its title, and links
 * written the platform's way (`/pages/<id or path>`, `/files/<id>`, a batch-local ref) are rewritten
 * to the links this server stores: paths from the top of the content (`/guide/install.md`,
 * `/.gitbook/assets/<name>`), which its link checks and exports read.
 */

/** Metadata a markdown body's frontmatter may set (the names of 0.202.0's RevisionPageUpdate). */
export type Frontmatter = Partial<{
  title: string;
  description: string;
  emoji: string;
  icon: string;
  hidden: boolean;
  noIndex: boolean;
  noRobotsIndex: boolean;
}>;

const STRING_KEYS = ['title', 'description', 'emoji', 'icon'] as const;
const FLAG_KEYS = ['hidden', 'noIndex', 'noRobotsIndex'] as const;

/** Splits a leading `---` YAML block off a body; its known keys become metadata (others are ignored). */
export function readFrontmatter(markdown: string): { body: string; metadata: Frontmatter } {
  const match = /^---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/.exec(markdown);
  if (!match) return { body: markdown, metadata: {} };
  let data: unknown;
  try {
    data = parseYaml(match[1]);
  } catch {
    throw badRequest('document.markdown: the frontmatter is not valid YAML');
  }
  const metadata: Frontmatter = {};
  if (data && typeof data === 'object' && !Array.isArray(data)) {
    const fields = data as Record<string, unknown>;
    for (const key of STRING_KEYS) if (typeof fields[key] === 'string') metadata[key] = fields[key];
    for (const key of FLAG_KEYS) if (typeof fields[key] === 'boolean') metadata[key] = fields[key];
  }
  return { body: markdown.slice(match[0].length), metadata };
}

/** A body's leading `# heading` (before any other block) as a title, and the body without it. */
export function takeLeadingHeading(markdown: string): { body: string; title?: string } {
  const first = fromMarkdown(markdown).children[0];
  if (first?.type !== 'heading' || first.depth !== 1) return { body: markdown };
  const title = plainText(first).trim();
  if (!title) return { body: markdown };
  return { body: markdown.slice(first.position!.end.offset).replace(/^\s*\n/, ''), title };
}

/** How links of a batch resolve: a target to this server's form, null for one to make plain text, undefined to keep. */
export type LinkResolver = (url: string) => string | null | undefined;

/** The link's source with a new URL: `[text](url "title")`, `![alt](url "title")` or `[label]: url "title"`. */
function rewritten(markdown: string, node: Nodes & { url: string; title?: string | null }, url: string): string {
  const title = node.title ? ` "${node.title.replace(/"/g, '\\"')}"` : '';
  const target = /[\s()<>]/.test(url) ? `<${url}>` : url;
  if (node.type === 'definition') return `[${node.label ?? node.identifier}]: ${target}${title}`;
  if (node.type === 'image') return `![${node.alt ?? ''}](${target}${title})`;
  const children = 'children' in node ? node.children : [];
  const text = children.length ? markdown.slice(children[0].position!.start.offset, children[children.length - 1].position!.end.offset) : '';
  return `[${text}](${target}${title})`;
}

/** The body with its links resolved: each link, image or definition the resolver knows is rewritten (or made plain text). */
export function resolveLinks(markdown: string, resolve: LinkResolver): string {
  const edits: { start: number; end: number; text: string }[] = [];
  const walk = (node: Nodes) => {
    if ((node.type === 'link' || node.type === 'image' || node.type === 'definition') && node.position) {
      const url = resolve(node.url);
      if (url !== undefined) {
        const text = url === null ? (node.type === 'definition' ? '' : plainText(node)) : rewritten(markdown, node, url);
        edits.push({ start: node.position.start.offset!, end: node.position.end.offset!, text });
      }
      return;
    }
    if ('children' in node) for (const child of node.children) walk(child);
  };
  walk(fromMarkdown(markdown));
  let out = markdown;
  for (const edit of edits.sort((a, b) => b.start - a.start)) out = out.slice(0, edit.start) + edit.text + out.slice(edit.end);
  return out;
}
