/**
 * One block of the result view, drawn as what it is: text (Markdown when it reads as Markdown),
 * images and audio (data: URIs only), links and embedded resources (buttons that ask the
 * extension), structured content (a JSON tree with the outputSchema check), placeholders.
 * Server strings only through `textContent` (`el`) or the token renderer of `markdown.ts`.
 */
import type { ResultBlockView, SchemaCheckView } from '../../../src/core/results/resultView';
import { button, el, media } from '../shared/dom';
import { postToExtension } from '../shared/vscodeApi';
import { jsonTree } from './jsonTree';
import { renderMarkdown } from './markdown';
import * as l10n from '../shared/l10n';

const openLink = (uri: string) => postToExtension({ type: 'openLink', uri });

function text(t: string, markdown: boolean | undefined, truncatedChars?: number): HTMLElement[] {
  const out: HTMLElement[] = [markdown ? renderMarkdown(t, openLink) : el('pre', t, 'text')];
  if (truncatedChars) out.push(el('p', l10n.t('… {0} more characters not shown: use Open raw.', truncatedChars), 'muted'));
  return out;
}

function check(c: SchemaCheckView): HTMLElement {
  const p = el('div', undefined, `schema-check ${c.state}`);
  p.dataset.testid = 'schema-check';
  p.setAttribute('role', c.state === 'valid' ? 'note' : 'alert');
  switch (c.state) {
    case 'valid':
      p.append(el('span', l10n.t("✓ Matches the tool's outputSchema.")));
      break;
    case 'missing':
      p.append(el('span', l10n.t('✖ The tool declares an outputSchema but sent no structuredContent.')));
      break;
    case 'unusable':
      p.append(el('span', l10n.t("⚠ Not checked against the tool's outputSchema: {0}", c.error)));
      break;
    case 'invalid': {
      p.append(el('span', l10n.t("✖ Does not match the tool's outputSchema:")));
      const ul = el('ul');
      for (const e of c.errors.slice(0, 20)) ul.append(el('li', e));
      if (c.errors.length > 20) ul.append(el('li', l10n.t('… and {0} more', c.errors.length - 20)));
      p.append(ul);
    }
  }
  return p;
}

/** The `<section>` of one block; `server` names who returned it (for media descriptions). */
export function blockSection(b: ResultBlockView, server: string): HTMLElement {
  const section = el('section', undefined, `block ${b.kind}`);
  section.dataset.testid = `block-${b.kind}`;
  switch (b.kind) {
    case 'text':
      section.append(...text(b.text, b.markdown, b.truncatedChars));
      break;
    case 'image':
    case 'audio':
      section.append(media(b.kind, b.mimeType, b.data, l10n.t('{0} ({1}) returned by {2}', b.kind, b.mimeType, server)));
      break;
    case 'omitted':
      section.append(el('p', `[${b.what}]`, 'muted'));
      break;
    case 'link':
      section.append(
        button(b.label, 'open-link', () => openLink(b.uri), 'link-button'),
        el('code', b.uri, 'uri'),
      );
      if (b.mimeType) section.append(el('span', ` ${b.mimeType}`, 'muted'));
      if (b.description) section.append(el('p', b.description, 'muted'));
      break;
    case 'resource': {
      const head = el('div', undefined, 'resource-head');
      head.append(
        el('code', b.uri, 'uri'),
        el('span', ` ${b.mimeType ?? ''}`, 'muted'),
        button(
          l10n.t('Open as document'),
          `open-resource-${b.index}`,
          () => postToExtension({ type: 'openResource', index: b.index }),
          'secondary',
        ),
      );
      section.append(head);
      if (b.text !== undefined) section.append(...text(b.text, b.markdown, b.truncatedChars));
      else section.append(el('p', l10n.t('binary, {0} bytes', Math.floor(((b.binaryChars ?? 0) * 3) / 4)), 'muted'));
      break;
    }
    case 'role':
      section.append(el('h2', b.role, 'role'));
      break;
    case 'structured':
      // l10n-exempt: the protocol's field name, the same in every language.
      section.append(el('h2', 'structuredContent', 'label'));
      if (b.check) section.append(check(b.check));
      if (b.repeatsText) section.append(el('p', l10n.t('The same data as the text above: not shown twice (Open raw shows it).'), 'muted'));
      else if (b.tooDeep !== undefined)
        section.append(el('p', l10n.t('Nested more than {0} levels deep: not shown here.', b.tooDeep), 'muted'));
      else if (b.tooLargeChars !== undefined)
        section.append(el('p', l10n.t('Too large to show here ({0} characters of JSON): use Open raw.', b.tooLargeChars), 'muted'));
      else if ('json' in b) section.append(jsonTree(b.json));
      break;
    default:
      section.append(el('p', l10n.t('[unsupported content: {0}]', (b as { type?: string }).type ?? '?'), 'muted'));
  }
  return section;
}
