/**
 * The webviews' strings in the person's language (media/src/shared/l10n.ts): the host writes VS Code's
 * loaded bundle into the document (`panelHtml`'s `l10n`), and `l10n.t` reads it as `vscode.l10n.t`
 * reads it in the extension.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { numberMessage } from '../../../src/core/elicitation/formMessages';
import { fieldErrorText, setBundle, t } from '../../../media/src/shared/l10n';
import { L10N_BUNDLE_ID, panelHtml } from '../../../src/vscode/shared/webviewHtml';

const zh = JSON.parse(readFileSync(path.resolve(__dirname, '..', '..', '..', 'l10n', 'bundle.l10n.zh-cn.json'), 'utf8')) as Record<
  string,
  string
>;

describe('webview strings (l10n.t)', () => {
  afterEach(() => setBundle(undefined));

  it('shows the Chinese entry of the bundle, its placeholders filled in order', () => {
    setBundle(zh);
    assert.equal(t('Decline'), '拒绝');
    assert.equal(t('Answers sent. Waiting for {0}…', 'demo'), '回答已发送。正在等待 demo…');
    assert.equal(t('{0} asks for input (round {1}): {2} requests.', 'demo', 2, 3), 'demo 请求输入（第 2 轮）：3 个请求。');
  });

  it('shows the English message with no bundle, and a server text holding $& or {1} as it is', () => {
    setBundle(undefined);
    assert.equal(t('Decline'), 'Decline');
    assert.equal(t('Result of {0} from {1}.', '$&{1}', 'srv'), 'Result of $&{1} from srv.');
    assert.equal(t('Task {0}'), 'Task {0}');
  });

  it('the document carries the bundle as an inert data block and the language as lang', () => {
    const html = panelHtml({
      cspSource: 'https://webview.test',
      nonce: 'n',
      script: { uri: 'https://webview.test/a.js' },
      style: { uri: 'https://webview.test/a.css' },
      l10n: { language: 'zh-cn', bundle: { Decline: '拒绝', '</script><b>': 'x' } },
    });
    assert.match(html, /<html lang="zh-cn">/);
    const block = new RegExp(`<script type="application/json" id="${L10N_BUNDLE_ID}">([^<]*)</script>`).exec(html);
    assert.ok(block, 'no bundle block');
    assert.deepEqual(JSON.parse(block[1]), { Decline: '拒绝', '</script><b>': 'x' });
    const english = panelHtml({ cspSource: 'c', nonce: 'n', script: { uri: 'a' }, style: { uri: 'b' }, l10n: { language: 'en' } });
    assert.match(english, /<html lang="en">/);
    assert.doesNotMatch(english, new RegExp(L10N_BUNDLE_ID));
  });

  it('a field error the core wrote is shown in Chinese by its template, its numbers kept; English and unknown errors as written', () => {
    const error = numberMessage({ key: 'n', kind: 'integer', label: 'n', required: true, minimum: 1, maximum: 12 });
    assert.equal(error, 'Must be a whole number between 1 and 12');
    setBundle(zh);
    assert.equal(fieldErrorText(error), zh['Must be a whole number between {0} and {1}'].replace('{0}', '1').replace('{1}', '12'));
    assert.match(fieldErrorText(error), /[\u4e00-\u9fff]/);
    assert.equal(fieldErrorText('Choose one of the options'), zh['Choose one of the options']);
    assert.equal(fieldErrorText('a server said {0}: $&'), 'a server said {0}: $&');
    setBundle(undefined);
    assert.equal(fieldErrorText(error), error);
  });
});
