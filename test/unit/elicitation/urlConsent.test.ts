/** URL-mode consent analysis (field case F5 and the MCPJam-style warnings). */
import assert from 'node:assert/strict';
import { analyzeUrl } from '../../../src/core/elicitation/urlConsent';

describe('URL consent analysis', () => {
  it('F5: the full URL as sent, host highlighted, no warning for plain https', () => {
    const a = analyzeUrl('https://auth.example.test/connect?session=abc123');
    assert.equal(a.url, 'https://auth.example.test/connect?session=abc123');
    assert.equal(a.host, 'auth.example.test');
    assert.deepEqual(a.parts, { before: 'https://', host: 'auth.example.test', after: '/connect?session=abc123' });
    assert.deepEqual(a.warnings, []);
    assert.equal(a.openable, true);
  });
  it('warns on punycode, credentials, raw IPs and plain http (not localhost)', () => {
    assert.match(analyzeUrl('https://xn--pple-43d.com/login').warnings.join(), /punycode/);
    const cred = analyzeUrl('https://github.com@evil.test/x');
    assert.match(cred.warnings.join(), /user name or password/);
    assert.equal(cred.host, 'evil.test');
    assert.equal(cred.parts.host, 'evil.test');
    assert.match(analyzeUrl('https://203.0.113.9/a').warnings.join(), /raw IP/);
    assert.match(analyzeUrl('http://example.test/').warnings.join(), /not encrypted/);
    assert.deepEqual(analyzeUrl('http://localhost:3000/cb').warnings, []);
    assert.match(analyzeUrl('https://аpple.com/').warnings.join(), /punycode|international/);
  });
  it('warns on invisible and text-direction characters', () => {
    assert.match(analyzeUrl('https://example.test/\u202Eexe.live').warnings.join(), /invisible or text-direction/);
    assert.deepEqual(analyzeUrl('https://example.test/plain').warnings, []);
  });
  it('a backslash before "@": the host shown, highlighted and opened is the one a browser reaches (good.test), with a warning', () => {
    for (const raw of ['https://good.test\\@evil.test/', 'https:\\\\good.test\\@evil.test/']) {
      const a = analyzeUrl(raw);
      assert.equal(a.url, raw, 'shown as sent');
      assert.equal(a.host, 'good.test');
      assert.equal(new URL(a.href).host, 'good.test', 'the address opened goes where the host says');
      assert.equal(a.parts.host, 'good.test', 'the highlight is the host reached');
      assert.match(a.warnings.join(' '), /backslash, which browsers read as "\/": it goes to good\.test/);
    }
  });

  it('only http(s) is openable', () => {
    for (const u of ['javascript:alert(1)', 'file:///etc/passwd', 'vscode://x', 'not a url'])
      assert.equal(analyzeUrl(u).openable, false, u);
  });
});
