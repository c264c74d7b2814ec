/**
 * Markdown from a server, rendered without ever becoming HTML: markdown-it (raw HTML disabled)
 * parses the text into tokens, and this file builds the DOM from those tokens with `createElement`
 * and `textContent` only, from a fixed list of tags, with no attribute copied. Links become
 * link-styled controls that ask the extension (which asks the person before opening anything);
 * images are named with their URL, never loaded.
 */
import MarkdownIt from 'markdown-it';
import { el } from '../shared/dom';
import * as l10n from '../shared/l10n';

const md = new MarkdownIt({ html: false, linkify: false, typographer: false });
type Token = ReturnType<MarkdownIt['parse']>[number];

/** Tags a token may create; anything else is rendered as its text. */
const TAGS = new Set([
  'p',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'ul',
  'ol',
  'li',
  'blockquote',
  'table',
  'thead',
  'tbody',
  'tr',
  'th',
  'td',
  'em',
  'strong',
  's',
  'hr',
  'br',
]);

/** What a click on a Markdown link does (the extension decides). */
export type LinkClick = (href: string) => void;

function linkControl(href: string, onLink: LinkClick): HTMLAnchorElement {
  // No href: the webview would follow it itself. A focusable link-role control instead.
  const a = el('a', undefined, 'md-link');
  a.setAttribute('role', 'link');
  a.tabIndex = 0;
  a.title = href;
  a.addEventListener('click', (e) => (e.preventDefault(), onLink(href)));
  a.addEventListener('keydown', (e) => e.key === 'Enter' && onLink(href));
  return a;
}

/** Append `tokens` (block or inline) to `root`. */
function build(tokens: readonly Token[], root: HTMLElement, onLink: LinkClick): void {
  const stack: HTMLElement[] = [root];
  const top = () => stack[stack.length - 1];
  for (const t of tokens) {
    if (t.type === 'inline') {
      build(t.children ?? [], top(), onLink);
      continue;
    }
    if (t.nesting === 1) {
      let e: HTMLElement;
      if (t.type === 'link_open') e = linkControl(t.attrGet('href') ?? '', onLink);
      else if (TAGS.has(t.tag)) e = el(t.tag as 'p');
      else e = el('span');
      const start = Number(t.attrGet('start'));
      if (e instanceof HTMLOListElement && Number.isSafeInteger(start)) e.start = start;
      top().append(e);
      stack.push(e);
      continue;
    }
    if (t.nesting === -1) {
      if (stack.length > 1) stack.pop();
      continue;
    }
    switch (t.type) {
      case 'text':
        top().append(t.content);
        break;
      case 'code_inline':
        top().append(el('code', t.content));
        break;
      case 'code_block':
      case 'fence': {
        const pre = el('pre', undefined, 'md-code');
        pre.append(el('code', t.content));
        top().append(pre);
        break;
      }
      case 'softbreak':
        top().append('\n');
        break;
      case 'hardbreak':
        top().append(el('br'));
        break;
      case 'hr':
        top().append(el('hr'));
        break;
      case 'image': {
        const span = el('span', `${l10n.t('[image: {0}]', t.content || l10n.t('no description'))} `, 'muted');
        span.append(el('code', t.attrGet('src') ?? ''));
        top().append(span);
        break;
      }
      default:
        if (t.content) top().append(t.content);
    }
  }
}

/** `text` (Markdown) as DOM nodes in a `<div class="markdown">`. */
export function renderMarkdown(text: string, onLink: LinkClick): HTMLElement {
  const root = el('div', undefined, 'markdown');
  build(md.parse(text, {}), root, onLink);
  return root;
}
