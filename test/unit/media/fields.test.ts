/** Pure helpers of the round panel's webview fields (media/src/roundPanel/fields/text.ts), under Node. */
import assert from 'node:assert/strict';
import { toLocalDateTimeInput } from '../../../media/src/roundPanel/fields/text';

describe('round panel fields: date-time pre-fill', () => {
  it('keeps a local date-time (a value typed last round) as it is', () => {
    assert.equal(toLocalDateTimeInput('2026-11-01T09:30'), '2026-11-01T09:30');
    assert.equal(toLocalDateTimeInput('2026-11-01T09:30:15'), '2026-11-01T09:30:15');
  });

  it('shows an RFC 3339 value with an offset as the same instant in local time', () => {
    const iso = '2026-11-01T09:30:00Z';
    const d = new Date(iso);
    const pad = (n: number) => String(n).padStart(2, '0');
    assert.equal(
      toLocalDateTimeInput(iso),
      `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}:00`,
    );
  });

  it('gives an empty input for anything else', () => {
    assert.equal(toLocalDateTimeInput('tomorrow'), '');
    assert.equal(toLocalDateTimeInput('2026-11-01'), '');
  });
});
