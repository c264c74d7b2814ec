/**
 * The result view's script: renders result blocks sent by the extension. Every server string goes
 * through textContent; images and audio only as data: URIs; links are buttons that ask the
 * extension (which asks the person before opening anything).
 */
import { el, media } from '../shared/dom';
import { postToExtension } from '../shared/vscodeApi';

type Block =
  | { kind: 'text'; text: string; mono?: boolean }
  | { kind: 'image' | 'audio'; mimeType: string; data: string }
  | { kind: 'link'; label: string; uri: string; mimeType?: string }
  | { kind: 'resource'; uri: string; mimeType?: string; text?: string; blob?: string }
  | { kind: 'unsupported'; type: string };

function render(msg: { server: string; target: string; isError: boolean; blocks: Block[] }): void {
  const root = document.getElementById('root')!;
  root.replaceChildren();
  const h = el('h1', `${msg.target}`);
  h.append(el('span', ` — ${msg.server}`, 'muted'));
  root.append(h);
  if (msg.isError) root.append(el('p', 'The tool reported an error.', 'error'));
  for (const b of msg.blocks) {
    const section = el('section', undefined, `block ${b.kind}`);
    switch (b.kind) {
      case 'text': {
        const pre = el('pre', b.text, b.mono ? 'mono' : 'text');
        section.append(pre);
        break;
      }
      case 'image':
      case 'audio':
        section.append(media(b.kind, b.mimeType, b.data, `${b.kind} (${b.mimeType}) returned by ${msg.server}`));
        break;
      case 'link': {
        const button = el('button', b.label);
        button.type = 'button';
        button.addEventListener('click', () => postToExtension({ type: 'openLink', uri: b.uri }));
        section.append(button, el('code', b.uri, 'uri'));
        if (b.mimeType) section.append(el('span', ` ${b.mimeType}`, 'muted'));
        break;
      }
      case 'resource':
        section.append(el('code', b.uri, 'uri'), b.text !== undefined ? el('pre', b.text) : el('p', `binary ${b.mimeType ?? ''}`, 'muted'));
        break;
      default:
        section.append(el('p', `[unsupported content: ${(b as { type?: string }).type ?? '?'}]`, 'muted'));
    }
    root.append(section);
  }
}

window.addEventListener('message', (e: MessageEvent) => {
  const m = e.data as { type?: string };
  if (m?.type === 'render') render(e.data);
});
