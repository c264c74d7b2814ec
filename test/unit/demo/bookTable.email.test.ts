/** The demo's book_table agrees with the host on what an email address is (review). */
import assert from 'node:assert/strict';
import { checkFormContent } from '../../../src/core/elicitation/formCheck';
import { Booking, BOOKING_FORM } from '../../../src/demo/tools/bookTable';

const booking = (email: string) => ({
  date: '2026-12-01',
  email,
  partySize: 2,
  outdoor: false,
  seating: 'window',
  time: '19:00',
  dietary: ['none'],
});

describe('demo book_table email (review)', () => {
  it('an address the host accepts is not refused by the demo on the retry, and the reverse', () => {
    for (const email of ['a@b.c', 'ada@example.com', 'ada@ex.c0m', 'x@localhost', 'a..b@c.d', 'bad@', 'ada@exa_mple.com']) {
      const host = Object.keys(checkFormContent(BOOKING_FORM, booking(email))).length === 0;
      const demo = Booking.safeParse(booking(email)).success;
      assert.equal(demo, host, `${email}: host ${host ? 'accepts' : 'refuses'}, demo ${demo ? 'accepts' : 'refuses'}`);
    }
  });
});
