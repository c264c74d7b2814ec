/**
 * The CLI's usage text and usage errors in the person's language (issue 43): under LANG=zh_CN.UTF-8 (or
 * `--lang zh-cn`) the built CLI prints `--help` and a usage error in Chinese, node's own parseArgs
 * errors in the CLI's words; under LANG=C exactly the English it always printed; the Chinese usage
 * names the same commands and flags as the English, line by line.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { parseCli, USAGE, UsageError } from '../../../src/cli/args';
import { OAUTH_FLAGS_USAGE } from '../../../src/cli/oauthFlags';
import { setCliLang } from '../../../src/cli/messages';
import { USAGE_ZH_CN } from '../../../src/cli/messages.zh-cn';
import { DIST, ensureBuilt, ROOT } from '../../support/build';

/** The built CLI run with `args` under `env` (the locale variables cleared first). */
function cli(args: string[], env: NodeJS.ProcessEnv) {
  const r = spawnSync(process.execPath, [path.join(DIST, 'cli.js'), ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 30_000,
    env: { ...process.env, LC_ALL: '', LC_MESSAGES: '', LANG: '', ...env },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** The syntax of a usage line: its flags, placeholders and bracketed parts, in order. */
const syntax = (line: string) => line.match(/--[a-z-]+|<[^>\s]+>|\[[^\]\u4e00-\u9fff]*\]/g) ?? [];

/** The usage error's message for `argv` (parseCli throws it). */
function usageError(argv: string[]): string {
  try {
    parseCli(argv, ROOT);
  } catch (e) {
    if (e instanceof UsageError) return e.message;
    throw e;
  }
  throw new Error(`no usage error for ${argv.join(' ')}`);
}

describe('CLI: usage text and usage errors in English and Chinese', function () {
  this.timeout(120_000);
  afterEach(() => setCliLang('en'));

  it('the Chinese usage has the English lines, flags and placeholders, each line explained in Chinese', () => {
    const en = USAGE.split('\n');
    const zh = USAGE_ZH_CN.split('\n');
    assert.equal(zh.length, en.length);
    en.forEach((line, i) => assert.deepEqual(syntax(zh[i]), syntax(line), `line ${i + 1}: ${line}`));
    assert.ok(USAGE.includes(OAUTH_FLAGS_USAGE), 'the sign-in flags are part of the usage');
    const explained = zh.filter((l) => /[\u4e00-\u9fff]/.test(l)).length;
    assert.ok(explained >= en.length - 6, `only ${explained} of ${zh.length} lines are in Chinese`);
  });

  it('node parseArgs errors are said in the CLI words: the same English as before, Chinese when asked', () => {
    assert.equal(usageError(['--foo']), "Unknown option '--foo' (see --help)");
    assert.equal(usageError(['--stdio']), "Option '--stdio <value>' argument missing");
    assert.equal(usageError(['--json=1']), "Option '--json' does not take an argument");
    assert.equal(
      usageError(['--stdio', 'x', '--max-rounds', 'x', 'call', 't']),
      '--max-rounds needs a whole number from 0 to 9007199254740991, got "x"',
    );
    setCliLang('zh-cn');
    assert.equal(usageError(['--foo']), '未知选项“--foo”（参见 --help）');
    assert.equal(usageError(['--stdio']), '选项“--stdio <value>”缺少参数值');
    assert.equal(usageError(['--json=1']), '选项“--json”不接受参数值');
    assert.match(usageError(['--stdio', '--json']), /^选项“--stdio”的参数值有歧义。\n/);
    assert.equal(usageError(['--stdio', 'x', 'call']), 'call 需要工具名称');
    assert.equal(
      usageError(['--http', 'https://e.example/mcp', '--client-secret', 's', 'tools']).includes('--client-secret-env <VAR>'),
      true,
    );
    assert.match(usageError(['--stdio', 'x', 'complete', 'prompt']), /^complete prompt 需要提示名称$/);
  });

  it('the built CLI: --help and a usage error in Chinese under LANG=zh_CN.UTF-8 and with --lang zh-cn, the same English as before under LANG=C', () => {
    ensureBuilt();
    const zhHelp = cli(['--help'], { LANG: 'zh_CN.UTF-8' });
    assert.equal(zhHelp.code, 0);
    assert.equal(zhHelp.stdout, `${USAGE_ZH_CN}\n`);
    assert.match(zhHelp.stdout, /^用法：mcp-roundtrip/);
    assert.equal(cli(['--lang', 'zh-cn', '--help'], { LANG: 'C' }).stdout, `${USAGE_ZH_CN}\n`);

    const zhError = cli(['--stdio', 'node x.js', '--bogus', 'tools'], { LANG: 'zh_CN.UTF-8' });
    assert.equal(zhError.code, 2);
    assert.equal(zhError.stderr, `mcp-roundtrip: 未知选项“--bogus”（参见 --help）\n${USAGE_ZH_CN}\n`);
    const langError = cli(['--lang=zh-cn', '--stdio', 'node x.js', 'call'], { LANG: 'C' });
    assert.equal(langError.code, 2);
    assert.equal(langError.stderr, `mcp-roundtrip: call 需要工具名称\n${USAGE_ZH_CN}\n`);

    const enHelp = cli(['--help'], { LANG: 'C' });
    assert.equal(enHelp.code, 0);
    assert.equal(enHelp.stdout, `${USAGE}\n`);
    assert.match(enHelp.stdout, /^usage: mcp-roundtrip \(--stdio "<command line>" \| --http <url>\)/);
    const enError = cli(['--stdio', 'node x.js', '--bogus', 'tools'], { LANG: 'C' });
    assert.equal(enError.code, 2);
    assert.equal(enError.stderr, `mcp-roundtrip: Unknown option '--bogus' (see --help)\n${USAGE}\n`);
    assert.equal(
      cli(['--lang', 'en', '--stdio', 'node x.js', 'call'], { LANG: 'zh_CN.UTF-8' }).stderr,
      `mcp-roundtrip: call needs a tool name\n${USAGE}\n`,
    );
    // What was typed is echoed, never a control sequence of it (it would drive the terminal).
    const typed = cli(['--stdio', 'node x.js', '--bo\u001b]0;owned\u0007gus', 'tools'], { LANG: 'C' });
    assert.equal(typed.code, 2);
    assert.ok(![...typed.stderr].some((c) => c < ' ' && c !== '\n'), 'a control character reached stderr');
    assert.match(typed.stderr, /^mcp-roundtrip: Unknown option '--bo ]0;owned gus' \(see --help\)\n/);
  });
});
