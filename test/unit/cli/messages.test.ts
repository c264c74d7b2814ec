/**
 * The CLI speaks the person's language (issue 43): `LC_ALL`, `LC_MESSAGES`, `LANG` (zh_CN.UTF-8 →
 * Chinese) or `--lang`; every text given to `cliText` has its Chinese entry with the same
 * placeholders; the built CLI, at a terminal under LANG=zh_CN.UTF-8, asks the demo's form in Chinese.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseCli, UsageError } from '../../../src/cli/args';
import { cliLang, cliList, cliText, HOST_TEXTS, hostText, localeLang, runErrorText, setCliLang } from '../../../src/cli/messages';
import { HostError, type HostErrorKind } from '../../../src/core/util/errors';
import { fieldPrompt, rawValue, terminalFieldError } from '../../../src/cli/terminalText';
import { buildElicitResult } from '../../../src/core/elicitation/formCheck';
import type { FormField } from '../../../src/core/elicitation/formField';
import { buildFormModel } from '../../../src/core/elicitation/formFields';
import { FORMAT_MESSAGES, itemsMessage, lengthMessage, numberMessage, REQUIRED_MESSAGE } from '../../../src/core/elicitation/formMessages';
import { fieldError } from '../../../src/core/elicitation/formModel';
import { ZH_CN } from '../../../src/cli/messages.zh-cn';
import { DIST, ensureBuilt, ROOT } from '../../support/build';

const CLI_DIR = path.join(ROOT, 'src', 'cli');

/** The messages given to `cliText` in src/cli (a call whose message is no literal is `undefined`). */
function messages(): { file: string; message?: string }[] {
  return readdirSync(CLI_DIR)
    .filter((f) => f.endsWith('.ts') && f !== 'messages.ts')
    .flatMap((file) =>
      [
        ...readFileSync(path.join(CLI_DIR, file), 'utf8').matchAll(
          /cliText\(\s*(?:'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)"|([^\s'"][^,)]*))/g,
        ),
      ].map((m) => ({
        file,
        message: (m[1] ?? m[2])?.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c)),
      })),
    );
}

const placeholders = (t: string) => [...new Set([...t.matchAll(/\{\d+\}/g)].map((m) => m[0]))].sort();

describe('CLI: English and Chinese', function () {
  this.timeout(120_000);
  afterEach(() => setCliLang('en'));

  it('every cliText message is a literal with a Chinese entry, the same placeholders; no entry unused', () => {
    const found = messages();
    assert.ok(found.length >= 30, `only ${found.length} cliText calls found`);
    assert.deepEqual(
      found.filter((f) => f.message === undefined),
      [],
    );
    for (const { file, message } of found) {
      const zh = ZH_CN[message!];
      assert.ok(zh, `${file}: "${message}" has no Chinese entry in src/cli/messages.zh-cn.ts`);
      assert.match(zh, /[\u4e00-\u9fff]/, `"${message}" is not translated`);
      assert.deepEqual(placeholders(zh), placeholders(message!), `"${message}": the placeholders differ`);
    }
    const used = new Set([...found.map((f) => f.message), ...HOST_TEXTS]);
    assert.deepEqual(
      Object.keys(ZH_CN).filter((k) => !used.has(k)),
      [],
    );
  });

  it('every host text the CLI shows (core field errors, errors that end a run) has its Chinese entry, the same placeholders', () => {
    assert.ok(HOST_TEXTS.includes('Choose one of the options'));
    for (const key of HOST_TEXTS) {
      const zh = ZH_CN[key];
      assert.ok(zh, `HOST_TEXTS: "${key}" has no Chinese entry in src/cli/messages.zh-cn.ts`);
      assert.match(zh, /[\u4e00-\u9fff]/, `"${key}" is not translated`);
      assert.deepEqual(placeholders(zh), placeholders(key), `"${key}": the placeholders differ`);
    }
  });

  it("the core's field errors, as the core words them, are Chinese at a Chinese terminal and the same English otherwise", () => {
    const field = (f: Partial<FormField>): FormField => ({ key: 'k', label: 'k', required: true, kind: 'text', ...f });
    const said = [
      REQUIRED_MESSAGE,
      ...Object.values(FORMAT_MESSAGES),
      ...(['number', 'integer'] as const).flatMap((kind) =>
        [{}, { minimum: 1 }, { maximum: 5 }, { minimum: 1, maximum: 5 }].map((b) => numberMessage(field({ kind, ...b }))),
      ),
      ...[
        {},
        { minLength: 1 },
        { minLength: 2 },
        { maxLength: 1 },
        { maxLength: 9 },
        { minLength: 3, maxLength: 3 },
        { minLength: 1, maxLength: 1 },
        { minLength: 2, maxLength: 8 },
      ].map((b) => lengthMessage(field(b))),
      ...[{}, { minItems: 1 }, { maxItems: 2 }, { minItems: 2, maxItems: 2 }, { minItems: 1, maxItems: 3 }].map((b) =>
        itemsMessage(field({ kind: 'multiselect', ...b })),
      ),
    ];
    // What the form model says of a choice that is none of the options, as the terminal shows it.
    const model = buildFormModel({ type: 'object', properties: { tier: { type: 'string', enum: ['a', 'b'] } }, required: ['tier'] });
    const outcome = buildElicitResult(model, 'accept', { tier: 'zzz' });
    assert.equal(outcome.ok, false);
    const choose = outcome.ok ? '' : fieldError(outcome.errors, 'tier')!;
    assert.equal(choose, 'Choose one of the options');
    said.push(choose);
    for (const english of said) assert.equal(hostText(english), english, 'English stays as the core says it');
    setCliLang('zh-cn');
    for (const english of said) assert.match(hostText(english), /[\u4e00-\u9fff]/, english);
    for (const english of said) assert.notEqual(hostText(english), english, `"${english}" has no Chinese`);
    assert.equal(hostText('Choose one of the options'), '请从选项中选择一项');
    assert.equal(hostText('Must be a whole number between 1 and 5'), '必须是 1 到 5 之间的整数');
    assert.equal(terminalFieldError(model.fields[0], choose), '请从选项中选择一项');
    // A list in Chinese takes its enumeration comma, and the parts of a prompt its semicolon.
    assert.match(fieldPrompt(model.fields[0]), /^tier \(单选；1=a、2=b；必填\)$/);
    assert.equal(cliList(['y', 'n']), 'y、n');
    // What a Chinese keyboard types between choices is taken as the comma.
    const many = buildFormModel({
      type: 'object',
      properties: { diet: { type: 'array', items: { type: 'string', enum: ['a', 'b', 'c'] } } },
    }).fields[0];
    assert.deepEqual(rawValue(many, '1，3'), ['a', 'c']);
    assert.deepEqual(rawValue(many, '2、3'), ['b', 'c']);
    // The frame is ours; what it holds (a server's name, its words) stays as it is.
    assert.equal(
      runErrorText(new HostError('connection', 'could not connect to nope: nope closed the connection during the handshake')),
      '无法连接到 nope：nope closed the connection during the handshake',
    );
    assert.equal(hostText('something no key fits'), 'something no key fits');
    // A server's words are never read as ours: a template of another kind's message, or of no HostError, is not used.
    const serverSaid = 'err answered tools/list with error -32000: x on y timed out';
    assert.equal(runErrorText(new HostError('server', serverSaid)), serverSaid);
    assert.equal(runErrorText(new Error('The job was cancelled')), 'The job was cancelled');
    const limit = "127.0.0.1:1 did not finish within the call's time limit (1297 ms of active time); tasks/cancel was sent to 127.0.0.1";
    assert.equal(runErrorText(new HostError('timeLimit', limit)), limit, 'not read by the template of a cancelled call');
    // A task past the limit: ours, in Chinese; the task, the tool and the server as they are.
    const zhLine = (kind: HostErrorKind, message: string) => runErrorText(new HostError(kind, message));
    assert.equal(
      zhLine(
        'timeLimit',
        "task t-3 of research on 127.0.0.1:9 did not finish within the call's time limit (1500 ms of active time); tasks/cancel was sent to 127.0.0.1:9",
      ),
      '127.0.0.1:9 上 research 的任务 t-3 未在调用的时间限制（1500 毫秒活动时间）内完成；已向 127.0.0.1:9 发送 tasks/cancel',
    );
    assert.equal(
      zhLine('cancelled', 'task t-3 of research was cancelled; tasks/cancel was sent to 127.0.0.1:9'),
      'research 的任务 t-3 已取消；已向 127.0.0.1:9 发送 tasks/cancel',
    );
    // The task id is the server's: holding " of " (and the frame's other words), it stays the task id,
    // the tool's name stays the tool's, where the shortest match took "a" as the id and the rest as the tool.
    assert.equal(
      zhLine(
        'timeLimit',
        "task a of b on c was cancelled; tasks/cancel was sent to d of research on 127.0.0.1:9 did not finish within the call's time limit (1500 ms of active time); tasks/cancel was sent to 127.0.0.1:9",
      ),
      '127.0.0.1:9 上 research 的任务 a of b on c was cancelled; tasks/cancel was sent to d 未在调用的时间限制（1500 毫秒活动时间）内完成；已向 127.0.0.1:9 发送 tasks/cancel',
    );
    assert.equal(
      zhLine('cancelled', 'task a of b of research was cancelled; tasks/cancel was sent to 127.0.0.1:9'),
      'research 的任务 a of b 已取消；已向 127.0.0.1:9 发送 tasks/cancel',
    );
    // A server without completions: the frame is ours, under the kind the core gives it.
    assert.equal(
      zhLine(
        'server',
        'demo does not offer completions (no "completions" capability); give the value of city yourself (see prompts or templates)',
      ),
      'demo 不提供补全（没有 "completions" 能力）；请自己给出 city 的值（见 prompts 或 templates）',
    );
    assert.equal(hostText('tools/call t on demo was cancelled'), 'tools/call t on demo was cancelled', 'hostText reads field errors only');
    assert.equal(runErrorText(new HostError('cancelled', 'tools/call t on demo was cancelled')), 'demo 上的 tools/call t 已取消');
  });

  it('the locale variables decide as POSIX reads them; --lang wins; a language the CLI lacks is a usage error', () => {
    assert.equal(localeLang({ LANG: 'zh_CN.UTF-8' }), 'zh-cn');
    assert.equal(localeLang({ LANG: 'zh_TW.UTF-8' }), 'zh-cn');
    assert.equal(localeLang({ LANG: 'en_US.UTF-8' }), 'en');
    assert.equal(localeLang({}), 'en');
    assert.equal(localeLang({ LANG: 'zh_CN.UTF-8', LC_ALL: 'C' }), 'en', 'LC_ALL comes first');
    assert.equal(localeLang({ LANG: 'en_US.UTF-8', LC_MESSAGES: 'zh_CN.UTF-8' }), 'zh-cn');
    assert.equal(localeLang({ LANG: 'zhx' }), 'en');
    assert.equal(cliLang(['--lang', 'en', 'tools'], { LANG: 'zh_CN.UTF-8' }), 'en');
    assert.equal(cliLang(['--lang=zh-cn', 'tools'], { LANG: 'C' }), 'zh-cn');
    assert.equal(cliLang(['--', '--lang', 'en'], { LANG: 'zh_CN.UTF-8' }), 'zh-cn', 'after -- it is no option');
    assert.throws(
      () => parseCli(['--stdio', 'x', '--lang', 'fr', 'tools']),
      (e: unknown) => e instanceof UsageError && /--lang must be one of en, zh-cn/.test(e.message),
    );
    assert.doesNotThrow(() => parseCli(['--stdio', 'x', '--lang', 'zh-cn', 'tools']));
  });

  it('cliText fills the placeholders in the language set', () => {
    setCliLang('zh-cn');
    assert.equal(cliText('Type one of: {0}.', 'y, n'), '请输入以下之一：y, n。');
    setCliLang('en');
    assert.equal(cliText('Type one of: {0}.', 'y, n'), 'Type one of: y, n.');
  });

  /**
   * The built CLI at a terminal (`script` gives it one) runs the demo's plan_trip; the first prompt is
   * answered :cancel once it shows. Resolves to everything the terminal showed.
   */
  function atTerminal(env: NodeJS.ProcessEnv, extra: string[], prompt: RegExp): Promise<string> {
    const line = [
      process.execPath,
      path.join(DIST, 'cli.js'),
      '--stdio',
      `'${process.execPath} ${path.join(DIST, 'demo-server.js')}'`,
      'call',
      'plan_trip',
      '--roots',
      ROOT,
      ...extra,
    ].join(' ');
    const child = spawn('script', ['-qfec', line, '/dev/null'], {
      cwd: ROOT,
      env: { ...process.env, LC_ALL: '', LC_MESSAGES: '', ...env },
    });
    let shown = '';
    let answered = false;
    return new Promise((resolve, reject) => {
      child.stdout.on('data', (d: Buffer) => {
        shown += d.toString();
        if (!answered && prompt.test(shown)) {
          answered = true;
          child.stdin.write(':cancel\n');
        }
      });
      child.on('error', reject);
      child.on('close', () => (answered ? resolve(shown) : reject(new Error(`the prompt never showed:\n${shown}`))));
    });
  }

  it('under LANG=zh_CN.UTF-8 the built CLI asks the demo form in Chinese; --lang en keeps it English', async () => {
    ensureBuilt();
    const zh = await atTerminal({ LANG: 'zh_CN.UTF-8' }, [], /必填\): /);
    assert.match(zh, /demo-server 询问（tools\/call plan_trip，第 1 轮，“trip”）：/);
    assert.match(zh, /在任何提示处输入 :decline 或 :cancel/);
    assert.match(zh, /Destination \(文本；2 到 80 个字符；必填\): /);
    // The server's words and the round-trip log stay as they are.
    assert.match(zh, /Where do you want to go, and on which days\?/);
    assert.match(zh, /→ \[demo-server\] tools\/call plan_trip/);
    const en = await atTerminal({ LANG: 'zh_CN.UTF-8' }, ['--lang', 'en'], /required\): /);
    assert.match(en, /demo-server asks \(tools\/call plan_trip, round 1, "trip"\):/);
    assert.doesNotMatch(en, /[\u4e00-\u9fff]/);
  });
});
