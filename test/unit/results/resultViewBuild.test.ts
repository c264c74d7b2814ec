/**
 * The result view's data: the header, each block as what it is, `structuredContent` checked against
 * the tool's `outputSchema` (a mismatch is shown, not hidden), and every part bounded (a result of
 * many megabytes is cut or named, never sent whole to the webview).
 */
import assert from 'node:assert/strict';
import { parseResultViewMessage } from '../../../src/core/results/resultView';
import { CallRecorder } from '../../../src/core/history/callRecorder';
import {
  buildResultView,
  embeddedResources,
  MAX_SHOWN_DEPTH,
  MAX_SHOWN_MEDIA,
  MAX_SHOWN_STRUCTURED,
  MAX_SHOWN_TEXT,
  type ShownCall,
} from '../../../src/core/results/resultViewBuild';
import { nestsDeeperThan } from '../../../src/core/util/json';
import { looksLikeMarkdown } from '../../../src/core/results/markdownSniff';

const OUTPUT = {
  type: 'object',
  properties: { status: { type: 'string', enum: ['booked', 'declined'] }, partySize: { type: 'integer' } },
  required: ['status'],
};
const tool = (result: Record<string, unknown>, extra: Partial<ShownCall> = {}): ShownCall => ({
  server: 'demo',
  method: 'tools/call',
  target: 'book_table',
  result,
  ...extra,
});

describe('result view data (buildResultView)', () => {
  it('the header: server, what was called, era, rounds, times, status, history id', () => {
    const v = buildResultView(
      tool({ content: [{ type: 'text', text: 'ok' }] }, { era: 'modern', rounds: 2, totalMs: 8123.4, waitingMs: 7000.2, historyId: 'h1' }),
    );
    assert.deepEqual(v.header, {
      server: 'demo',
      method: 'tools/call',
      target: 'book_table',
      status: 'complete',
      era: 'modern',
      rounds: 2,
      totalMs: 8123,
      waitingMs: 7000,
      historyId: 'h1',
    });
    assert.equal(buildResultView(tool({ isError: true, content: [] })).header.status, 'toolError');
  });

  it('text is Markdown only when it reads as Markdown; hostile markup stays text for the webview to show as text', () => {
    const v = buildResultView(
      tool({
        content: [
          { type: 'text', text: '# Title\n\n- one\n- **two**' },
          { type: 'text', text: 'plain <img src=x onerror=alert(1)> words' },
        ],
      }),
    );
    assert.deepEqual(
      v.blocks.map((b) => b.kind === 'text' && b.markdown),
      [true, false],
    );
    assert.equal((v.blocks[1] as { text: string }).text, 'plain <img src=x onerror=alert(1)> words');
    assert.ok(looksLikeMarkdown('| a | b |\n|---|---|'));
    assert.ok(!looksLikeMarkdown('{"a": 1}'));
  });

  it('structuredContent: checked against outputSchema (valid, invalid with the paths, missing), or no check without one', () => {
    const valid = buildResultView(tool({ content: [], structuredContent: { status: 'booked', partySize: 4 } }, { outputSchema: OUTPUT }));
    assert.deepEqual(valid.blocks, [{ kind: 'structured', json: { status: 'booked', partySize: 4 }, check: { state: 'valid' } }]);
    const invalid = buildResultView(
      tool({ content: [], structuredContent: { status: 'maybe', partySize: 4.5 } }, { outputSchema: OUTPUT }),
    );
    const check = (invalid.blocks[0] as { check: { state: string; errors: string[] } }).check;
    assert.equal(check.state, 'invalid');
    assert.equal(check.errors.length, 2);
    assert.match(check.errors.join('\n'), /status/);
    assert.match(check.errors.join('\n'), /partySize/);
    const missing = buildResultView(tool({ content: [{ type: 'text', text: 'hi' }] }, { outputSchema: OUTPUT }));
    assert.deepEqual(missing.blocks.at(-1), { kind: 'structured', check: { state: 'missing' } });
    assert.equal(
      buildResultView(tool({ isError: true, content: [{ type: 'text', text: 'boom' }] }, { outputSchema: OUTPUT })).blocks.length,
      1,
      'an error result needs no structuredContent',
    );
    const none = buildResultView(tool({ content: [], structuredContent: [1, 2] }));
    assert.deepEqual(none.blocks, [{ kind: 'structured', json: [1, 2] }]);
  });

  it('bounds: long text cut and counted, huge structured content and media named instead of sent', () => {
    const v = buildResultView(
      tool({
        content: [
          { type: 'text', text: '# big\n' + 'x'.repeat(MAX_SHOWN_TEXT * 3) },
          { type: 'image', mimeType: 'image/png', data: 'A'.repeat(MAX_SHOWN_MEDIA + 4) },
        ],
        structuredContent: { rows: Array.from({ length: 200_000 }, (_, i) => ({ i })) },
      }),
    );
    const [text, image, structured] = v.blocks as [
      { text: string; truncatedChars: number; markdown: boolean },
      { kind: string; what: string },
      { tooLargeChars: number; json?: unknown },
    ];
    assert.equal(text.text.length, MAX_SHOWN_TEXT);
    assert.equal(text.truncatedChars, MAX_SHOWN_TEXT * 2 + 6);
    assert.equal(text.markdown, false, 'a text too long to render is shown as text');
    assert.equal(image.kind, 'omitted');
    assert.match(image.what, /too large/);
    assert.ok(structured.tooLargeChars > MAX_SHOWN_STRUCTURED);
    assert.equal(structured.json, undefined);
    assert.ok(JSON.stringify(v).length < MAX_SHOWN_TEXT * 2, 'what is sent to the webview stays small');
  });

  it('a structuredContent nested deeper than JSON.stringify can go is named, not sent (and the history does not keep it)', () => {
    const deep = JSON.parse('['.repeat(200_000) + ']'.repeat(200_000));
    assert.throws(() => JSON.stringify(deep), RangeError);
    const v = buildResultView(
      tool({ content: [{ type: 'text', text: 'deep' }], structuredContent: deep }, { outputSchema: { type: 'array' } }),
    );
    assert.deepEqual(v.blocks[1], {
      kind: 'structured',
      tooDeep: MAX_SHOWN_DEPTH,
      check: { state: 'unusable', error: 'structuredContent nests more than 1000 levels deep: too deep to check' },
    });
    assert.ok(JSON.stringify(v).length < 1000);
    const recorder = new CallRecorder({
      id: 'hd',
      server: 'demo',
      method: 'tools/call',
      target: 't',
      params: { name: 't', arguments: {} },
    });
    const record = recorder.finish({ content: [], structuredContent: deep });
    assert.equal(record.result, undefined);
    assert.match(record.resultNote!, /nested too deeply/);
    assert.ok(nestsDeeperThan({ a: [{ b: 1 }] }, 2));
    assert.ok(!nestsDeeperThan({ a: [1] }, 2));
  });

  it('prompts: each message after its role; resources: each content openable by index; unknown blocks as placeholders', () => {
    const p = buildResultView({
      server: 'demo',
      method: 'prompts/get',
      target: 'code_review',
      result: {
        description: 'Review',
        messages: [
          { role: 'user', content: { type: 'text', text: 'Look' } },
          { role: 'assistant', content: { type: 'mystery' } },
        ],
      },
    });
    assert.deepEqual(
      p.blocks.map((b) => b.kind),
      ['role', 'text', 'role', 'unsupported'],
    );
    assert.equal(p.description, 'Review');
    const call: ShownCall = {
      server: 'demo',
      method: 'resources/read',
      target: 'demo://n',
      result: {
        contents: [
          { uri: 'demo://n', mimeType: 'text/markdown', text: 'plain' },
          { uri: 'demo://b', mimeType: 'image/png', blob: 'AAAA' },
        ],
      },
    };
    const r = buildResultView(call);
    assert.deepEqual(
      r.blocks.map((b) => [b.kind, (b as { index?: number }).index, (b as { markdown?: boolean }).markdown]),
      [
        ['resource', 0, true],
        ['resource', 1, undefined],
      ],
    );
    assert.deepEqual(
      embeddedResources(call).map((e) => e.uri),
      ['demo://n', 'demo://b'],
    );
  });

  it('messages from the webview: only the known ones, exactly shaped', () => {
    assert.deepEqual(parseResultViewMessage({ type: 'copyJson' }), { type: 'copyJson' });
    assert.deepEqual(parseResultViewMessage({ type: 'openResource', index: 2 }), { type: 'openResource', index: 2 });
    for (const bad of [
      null,
      [],
      { type: 'copyJson', extra: 1 },
      { type: 'openLink', uri: 3 },
      { type: 'openLink', uri: 'x'.repeat(10_001) },
      { type: 'openResource', index: -1 },
      { type: 'openResource', index: 1.5 },
      { type: 'eval' },
    ]) {
      assert.equal(parseResultViewMessage(bad), undefined, JSON.stringify(bad)?.slice(0, 60));
    }
  });
});
