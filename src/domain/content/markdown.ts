import { fromMarkdown } from 'mdast-util-from-markdown';
import type { Nodes, Parents, PhrasingContent, RootContent } from 'mdast';

/*
 * Markdown is how page bodies are stored. This module reads it back: the link and image targets a
 * body refers to (file backlinks today, link checks later) and the reference's JSON document form.
 */

/** Every link, image and link-definition target in a markdown body, in order. */
export function linkTargets(markdown: string): string[] {
  const targets: string[] = [];
  const walk = (node: Nodes) => {
    if (node.type === 'link' || node.type === 'image' || node.type === 'definition') targets.push(node.url);
    if ('children' in node) for (const child of (node as Parents).children) walk(child);
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
  return 'children' in node ? (node as Parents).children.map(plainText).join('') : '';
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
      out.push({ object: 'inline', type: 'link', data: { ref: { kind: 'url', url: node.url } }, isVoid: false, nodes: children.length ? children : [textNode(node.url)] });
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
        return [block('code', node.value.split('\n').map((line) => block('code-line', [textNode(line)])), node.lang ? { syntax: node.lang } : {})];
      case 'blockquote':
        return [block('blockquote', blocks(node.children))];
      case 'list':
        return [block(node.ordered ? 'list-ordered' : 'list-unordered', node.children.map((item) => block('list-item', blocks(item.children))))];
      case 'definition':
        return [];
      default:
        return [block('paragraph', [textNode(plainText(node))])];
    }
  });
}

/** A markdown body as the reference's JSON document (paragraphs, headings, lists, code, quotes, links, bold/italic/code marks). */
export function markdownToDocument(markdown: string) {
  return { object: 'document', data: {}, nodes: blocks(fromMarkdown(markdown).children) };
}
