/**
 * Small DOM helpers for the round panel's webview. Every string goes in through `textContent` or a
 * property (never `innerHTML`): server strings can hold markup, which must show as text.
 */

import * as l10n from './l10n';
/** Create an element with optional text (set as textContent) and class names. */
export function el<K extends keyof HTMLElementTagNameMap>(tag: K, text?: string, cls?: string): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  if (text !== undefined) e.textContent = text;
  if (cls) e.className = cls;
  return e;
}

/** A `<button type="button">` (never a submit button by accident) with a stable test id. */
export function button(text: string, testId: string, onClick: () => void, cls?: string): HTMLButtonElement {
  const b = el('button', text, cls);
  b.type = 'button';
  b.dataset.testid = testId;
  b.addEventListener('click', onClick);
  return b;
}

/** Show or hide an element (the `hidden` attribute; the CSS keeps it hidden). */
export function show(e: HTMLElement, visible: boolean): void {
  e.hidden = !visible;
}

let counter = 0;
/** An id safe for `id=` / `for=` / `aria-*` references: built from our own counter, never from server keys. */
export function uid(prefix: string): string {
  return `${prefix}-${++counter}`;
}

/** A test id fragment from a server key: readable, but only [A-Za-z0-9_-]. */
export function testKey(key: string): string {
  return key.replace(/[^A-Za-z0-9_-]/g, '_') || '_';
}

/** Image and audio types shown inline (as `data:` URIs only). */
const SAFE_MIME = /^(image\/(png|jpeg|gif|webp|bmp)|audio\/(mpeg|wav|ogg|webm|mp4|x-wav|flac|aac))$/;

/**
 * An `<img>` or `<audio controls>` for base64 data, or a muted note when the type is not one we
 * show or the data is not base64 (so nothing but a `data:` URI ever becomes a `src`).
 */
export function media(kind: 'image' | 'audio', mimeType: string, data: string, description: string): HTMLElement {
  if (!SAFE_MIME.test(mimeType) || !/^[A-Za-z0-9+/=\s]*$/.test(data))
    return el('p', l10n.t('[{0} of type {1} not shown]', kind, mimeType), 'muted');
  const src = `data:${mimeType};base64,${data.replace(/\s+/g, '')}`;
  if (kind === 'image') {
    const img = el('img');
    img.src = src;
    img.alt = description;
    return img;
  }
  const audio = el('audio');
  audio.controls = true;
  audio.src = src;
  audio.setAttribute('aria-label', description);
  return audio;
}
