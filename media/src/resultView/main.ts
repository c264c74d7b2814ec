/**
 * The result view's script: renders result blocks sent by the extension. Every server string goes
 * through textContent; images and audio only as data: URIs; links are buttons that ask the
 * extension (which asks the person before opening anything).
 */
declare function acquireVsCodeApi(): { postMessage(m: unknown): void };
const vscodeApi = acquireVsCodeApi();

type Block =
  | { kind: 'text'; text: string; mono?: boolean }
  | { kind: 'image' | 'audio'; mimeType: string; data: string }
  | { kind: 'link'; label: string; uri: string; mimeType?: string }
  | { kind: 'resource'; uri: string; mimeType?: string; text?: string; blob?: string }
  | { kind: 'unsupported'; type: string };

function el<K extends keyof HTMLElementTagNameMap>(tag: K, text?: string, cls?: string): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  if (text !== undefined) e.textContent = text;
  if (cls) e.className = cls;
  return e;
}

const SAFE_MIME = /^(image\/(png|jpeg|gif|webp|bmp)|audio\/(mpeg|wav|ogg|webm|mp4|x-wav|flac))$/;

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
      case 'audio': {
        if (!SAFE_MIME.test(b.mimeType) || !/^[A-Za-z0-9+/=\s]*$/.test(b.data)) {
          section.append(el('p', `[${b.kind} of type ${b.mimeType} not shown]`, 'muted'));
          break;
        }
        const src = `data:${b.mimeType};base64,${b.data.replace(/\s+/g, '')}`;
        if (b.kind === 'image') {
          const img = el('img');
          img.src = src;
          img.alt = `image (${b.mimeType}) returned by ${msg.server}`;
          section.append(img);
        } else {
          const audio = el('audio');
          audio.controls = true;
          audio.src = src;
          audio.setAttribute('aria-label', `audio (${b.mimeType}) returned by ${msg.server}`);
          section.append(audio);
        }
        break;
      }
      case 'link': {
        const button = el('button', b.label);
        button.type = 'button';
        button.addEventListener('click', () => vscodeApi.postMessage({ type: 'openLink', uri: b.uri }));
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
