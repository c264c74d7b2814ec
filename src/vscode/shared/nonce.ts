import { randomBytes } from 'node:crypto';

/** A fresh CSP nonce (128 random bits, base64). One per webview document. */
export function nonce(): string {
  return randomBytes(16).toString('base64');
}
