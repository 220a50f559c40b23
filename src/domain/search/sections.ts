import { fromMarkdown } from 'mdast-util-from-markdown';
import { plainText } from '../content/index.js';
import { slugOf } from '../content/index.js';

/** A part of a page: the text before the first heading (no anchor), or a heading and the text under it. */
export type Section = { anchor: string; title: string; body: string };

/** Splits a page body at its headings; the part before the first heading (named `pageTitle`) is always there, so that page titles are found. */
export function sectionsOf(pageTitle: string, markdown: string): Section[] {
  const sections: Section[] = [{ anchor: '', title: pageTitle, body: '' }];
  const anchors = new Set<string>();
  const texts: string[][] = [[]];
  for (const node of fromMarkdown(markdown).children) {
    if (node.type === 'heading') {
      const title = plainText(node).trim();
      let anchor = slugOf(title);
      // Two headings with the same text get distinct anchors, as the app numbers them.
      for (let n = 1; anchors.has(anchor); n++) anchor = `${slugOf(title)}-${n}`;
      anchors.add(anchor);
      sections.push({ anchor, title, body: '' });
      texts.push([]);
    } else {
      texts[texts.length - 1].push(plainText(node).trim());
    }
  }
  return sections.map((section, i) => ({ ...section, body: texts[i].filter(Boolean).join('\n') }));
}
