/**
 * The focus of a round panel page as the workbench shows it (media/src/roundPanel/shownFocus.ts): a new
 * page shown without the focus says so once, read after its load event and the workbench's own handler of
 * it; a page that gets the focus back with nothing focused in it gives it to the element focused last.
 */
import assert from 'node:assert/strict';
import { watchShownFocus } from '../../../media/src/roundPanel/shownFocus';

/** A stand-in element: records its focus calls, and becomes the document's focused element. */
interface Element {
  name: string;
  isConnected: boolean;
  focus(options: { preventScroll: boolean }): void;
}

/** A page whose events and timers happen when the test says. */
function page(hasFocus: boolean) {
  const body = { name: 'body' };
  const listeners: Record<string, ((e?: { target: unknown }) => void)[]> = { load: [], focus: [], focusin: [], pointerdown: [] };
  const timers: (() => void)[] = [];
  const focusCalls: string[] = [];
  const p = {
    addEventListener: (type: string, l: () => void, o?: { once: true }) => {
      const once = () => {
        listeners[type] = listeners[type].filter((x) => x !== once);
        l();
      };
      listeners[type].push(o?.once ? once : l);
    },
    setTimeout: (h: () => void) => timers.push(h),
    document: {
      activeElement: body as unknown,
      body,
      hasFocus: () => p.focused,
      addEventListener: (type: 'focusin', l: (e: { target: unknown }) => void) => listeners[type].push(l as () => void),
    },
    /** Whether the document has the focus (`document.hasFocus()`). */
    focused: hasFocus,
    focusCalls,
    element(name: string): Element {
      const e: Element = {
        name,
        isConnected: true,
        focus: (options) => {
          focusCalls.push(`${name} ${JSON.stringify(options)}`);
          p.focusOn(e);
        },
      };
      return e;
    },
    /** Focus moves to `e` (the body: nothing focused), with the `focusin` the browser sends. */
    focusOn(e: { name: string }) {
      p.document.activeElement = e;
      if (e !== body) listeners.focusin.forEach((l) => l({ target: e }));
    },
    fire: (type: 'load' | 'focus' | 'pointerdown') => [...listeners[type]].forEach((l) => l()),
    runTimers: () => timers.splice(0).forEach((t) => t()),
    body,
  };
  return p;
}
const watched = (p: ReturnType<typeof page>, posted: unknown[]) => watchShownFocus(p, (m) => posted.push(m));

describe('a round panel page and its focus', () => {
  it('posts unfocused once, after its load event, when its first field is focused but the page is not', () => {
    const posted: unknown[] = [];
    const p = page(false);
    watched(p, posted);
    p.focusOn(p.element('destination'));
    p.runTimers();
    assert.deepEqual(posted, [], 'nothing before the load event');
    p.fire('load');
    assert.deepEqual(posted, [], 'nor within it: the workbench focuses the page in its own handler, after ours');
    p.runTimers();
    p.fire('load');
    p.runTimers();
    assert.deepEqual(posted, [{ type: 'unfocused' }]);
  });

  it('posts nothing when the page was shown with the focus, or focused nothing (a panel opened beside chat)', () => {
    const posted: unknown[] = [];
    const shown = page(true);
    watched(shown, posted);
    shown.focusOn(shown.element('destination'));
    const beside = page(false);
    watched(beside, posted);
    for (const p of [shown, beside]) {
      p.fire('load');
      p.runTimers();
    }
    assert.deepEqual(posted, []);
  });

  it('posts nothing when the window had the focus before its load event, though it lost it since (the person went elsewhere)', () => {
    const posted: unknown[] = [];
    const p = page(false);
    watched(p, posted);
    p.focusOn(p.element('destination'));
    p.focused = true;
    p.fire('focus');
    p.focused = false;
    p.fire('load');
    p.runTimers();
    assert.deepEqual(posted, []);
  });

  it('leaves the focus to the target of a click that focuses the page, and gives it back again after the click', () => {
    const p = page(false);
    watched(p, []);
    p.focusOn(p.element('destination'));
    p.focusOn(p.body);
    // The window's focus event comes within the click's mousedown, before the clicked element takes the focus.
    p.fire('pointerdown');
    p.fire('focus');
    assert.deepEqual(p.focusCalls, []);
    p.runTimers();
    p.fire('focus');
    assert.deepEqual(p.focusCalls, ['destination {"preventScroll":true}']);
  });

  it('gives the focus back to the element focused last when the page gets it with nothing focused, without scrolling', () => {
    const p = page(true);
    watched(p, []);
    const destination = p.element('destination');
    const firstDay = p.element('firstDay');
    p.focusOn(destination);
    p.focusOn(firstDay);
    // The person went elsewhere, and the page lost its focused element; its panel is brought forward.
    p.focusOn(p.body);
    p.fire('focus');
    assert.deepEqual(p.focusCalls, ['firstDay {"preventScroll":true}']);
    assert.equal(p.document.activeElement, firstDay);
    // Something is focused already (the person clicked a field): it keeps the focus.
    const lastDay = p.element('lastDay');
    p.focusOn(lastDay);
    p.fire('focus');
    assert.equal(p.focusCalls.length, 1);
    // The element is gone (a new round was drawn): nothing is focused for it.
    p.focusOn(p.body);
    lastDay.isConnected = false;
    p.fire('focus');
    assert.equal(p.focusCalls.length, 1);
    assert.equal(p.document.activeElement, p.body);
  });
});
