import { createHash } from 'node:crypto';
import { fromMarkdown } from 'mdast-util-from-markdown';
import type { Nodes, PhrasingContent, RootContent } from 'mdast';

/*
 * Markdown is how page bodies are stored. This module reads it back: the link and image targets a
 * body refers to (file backlinks today, link checks later) and the reference's JSON document form.
 */

/** Every link, image and link-definition target in a markdown body, in order. */
export function linkTargets(markdown: string): string[] {
  const targets: string[] = [];
  const walk = (node: Nodes) => {
    if (node.type === 'link' || node.type === 'image' || node.type === 'definition') targets.push(node.url);
    if ('children' in node) for (const child of node.children) walk(child);
  };
  walk(fromMarkdown(markdown));
  return targets;
}

type Mark = { object: 'mark'; type: 'bold' | 'italic' | 'code' };
type Json = Record<string, unknown>;

const textNode = (text: string, marks: Mark[] = []) => ({ object: 'text', leaves: [{ object: 'leaf', text, marks }] });

/** The text of a node and its descendants, without markup. */
export function plainText(node: Nodes): string {
  if ('value' in node && typeof node.value === 'string') return node.value;
  if ('alt' in node && typeof node.alt === 'string') return node.alt;
  return 'children' in node ? node.children.map(plainText).join('') : '';
}

function inlines(nodes: PhrasingContent[], marks: Mark[] = []): Json[] {
  const out: Json[] = [];
  for (const node of nodes) {
    if (node.type === 'text') out.push(textNode(node.value, marks));
    else if (node.type === 'inlineCode') out.push(textNode(node.value, [...marks, { object: 'mark', type: 'code' }]));
    else if (node.type === 'strong') out.push(...inlines(node.children, [...marks, { object: 'mark', type: 'bold' }]));
    else if (node.type === 'emphasis') out.push(...inlines(node.children, [...marks, { object: 'mark', type: 'italic' }]));
    else if (node.type === 'break') out.push(textNode('\n', marks));
    else if (node.type === 'link') {
      const children = inlines(node.children, marks).filter((n) => n.object === 'text');
      out.push({
        object: 'inline',
        type: 'link',
        data: { ref: { kind: 'url', url: node.url } },
        isVoid: false,
        nodes: children.length ? children : [textNode(node.url)],
      });
    } else out.push(textNode(plainText(node), marks));
  }
  return out.length ? out : [textNode('')];
}

const block = (type: string, nodes: Json[], data: Json = {}) => ({ object: 'block', type, isVoid: false, data, nodes });

function blocks(nodes: RootContent[]): Json[] {
  return nodes.flatMap((node): Json[] => {
    switch (node.type) {
      case 'paragraph':
        return [block('paragraph', inlines(node.children))];
      case 'heading':
        return [block(`heading-${Math.min(node.depth, 3)}`, inlines(node.children))];
      case 'thematicBreak':
        return [{ object: 'block', type: 'divider', isVoid: true, data: {} }];
      case 'code':
        return [
          block(
            'code',
            node.value.split('\n').map((line) => block('code-line', [textNode(line)])),
            node.lang ? { syntax: node.lang } : {},
          ),
        ];
      case 'blockquote':
        return [block('blockquote', blocks(node.children))];
      case 'list':
        return [
          block(
            node.ordered ? 'list-ordered' : 'list-unordered',
            node.children.map((item) => block('list-item', blocks(item.children))),
          ),
        ];
      case 'definition':
        return [];
      default:
        return [block('paragraph', [textNode(plainText(node))])];
    }
  });
}

/** The top-level blocks of a body (link definitions are no blocks). */
const topLevelBlocks = (markdown: string) => fromMarkdown(markdown).children.filter((node) => node.type !== 'definition');

/**
 * Node ids of a page's top-level blocks: a hash of the page id, the block's markdown and how many
 * identical blocks come before it. An id survives edits elsewhere in the page and ends when its block
 * changes.
 */
function nodeKeys(pageId: string, markdown: string, nodes: RootContent[]): string[] {
  const seen = new Map<string, number>();
  return nodes.map((node) => {
    const source = markdown.slice(node.position?.start.offset ?? 0, node.position?.end.offset ?? 0);
    const occurrence = seen.get(source) ?? 0;
    seen.set(source, occurrence + 1);
    return createHash('sha1').update(`${pageId}\n${occurrence}\n${source}`).digest('hex').slice(0, 16);
  });
}

/** A page's nodes (its top-level blocks): the id a comment targets and the block's text. */
export function pageNodes(pageId: string, markdown: string): { id: string; text: string }[] {
  const nodes = topLevelBlocks(markdown);
  const keys = nodeKeys(pageId, markdown, nodes);
  return nodes.map((node, i) => ({ id: keys[i], text: plainText(node) }));
}

/**
 * A markdown body as the reference's JSON document (paragraphs, headings, lists, code, quotes, links,
 * bold/italic/code marks). Given the page id, top-level blocks carry their node id as `key`.
 */
export function markdownToDocument(markdown: string, pageId?: string) {
  const nodes = topLevelBlocks(markdown);
  const keys = pageId ? nodeKeys(pageId, markdown, nodes) : [];
  return { object: 'document', data: {}, nodes: nodes.flatMap((node, i) => blocks([node]).map((b) => (pageId ? { ...b, key: keys[i] } : b))) };
}
