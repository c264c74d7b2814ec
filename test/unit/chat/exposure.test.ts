/**
 * Which servers are offered to VS Code's chat: by default only those that speak nothing but
 * 2026-07-28 (what VS Code cannot serve itself); "all", "none" or a list by name; a server held back
 * is never offered; a server whose era is unknown needs one connection to tell. And the version that
 * tells VS Code a tool list changed.
 */
import assert from 'node:assert/strict';
import { exposureOf, parseExposeSetting, toolsVersion, type ServerFacts } from '../../../src/core/chat/exposure';

const facts = (f: Partial<ServerFacts>): ServerFacts => ({ name: 'srv', configuredEra: 'auto', ...f });

describe('chat exposure', () => {
  it('reads the setting, and names what is wrong with a bad value (then the default applies)', () => {
    assert.deepEqual(parseExposeSetting(undefined), { setting: 'modernOnly' });
    assert.deepEqual(parseExposeSetting('all'), { setting: 'all' });
    assert.deepEqual(parseExposeSetting('none'), { setting: 'none' });
    assert.deepEqual(parseExposeSetting(['demo', 'probe']), { setting: ['demo', 'probe'] });
    const bad = parseExposeSetting(['demo', 3]);
    assert.equal(bad.setting, 'modernOnly');
    assert.match(bad.problem ?? '', /mcpRoundtrip\.chat\.exposeServers must be .* got \["demo",3\]/);
    assert.match(parseExposeSetting('everything').problem ?? '', /"everything"/);
  });

  it('by default offers only the servers that speak nothing but 2026-07-28', () => {
    const table: [Partial<ServerFacts>, boolean, RegExp][] = [
      [{ era: 'modern', supportedVersions: ['2026-07-28'], legacyHandshake: false }, true, /speaks only 2026-07-28/],
      [{ configuredEra: 'modern', legacyHandshake: false }, true, /speaks only 2026-07-28/],
      [
        { era: 'modern', supportedVersions: ['2026-07-28'], legacyHandshake: true },
        false,
        /also answers the 2025 initialize handshake, so VS Code can serve it itself/,
      ],
      [{ era: 'modern', supportedVersions: ['2026-07-28', '2025-11-25'] }, false, /also speaks 2025-11-25, so VS Code can serve it itself/],
      [{ era: 'legacy' }, false, /speaks only the 2025 era/],
      [{ configuredEra: 'legacy' }, false, /speaks only the 2025 era/],
      [{ era: 'modern', legacyHandshake: false, heldBack: 'not started: untrusted' }, false, /not in chat: not started: untrusted/],
    ];
    for (const [f, exposed, reason] of table) {
      const x = exposureOf('modernOnly', facts(f));
      assert.equal(x.exposed, exposed, JSON.stringify(f));
      assert.match(x.reason, reason, JSON.stringify(f));
      assert.equal(x.needsProbe, undefined);
    }
    // Unknown era, or a 2026-07-28 server not yet tried with the 2025 handshake: connecting once tells.
    for (const f of [{}, { era: 'modern' as const, supportedVersions: ['2026-07-28'] }, { configuredEra: 'modern' as const }]) {
      const x = exposureOf('modernOnly', facts(f));
      assert.deepEqual([x.exposed, x.needsProbe], [false, true], JSON.stringify(f));
    }
  });

  it('"all", "none" and a list decide without the era; held back still wins', () => {
    const dual = facts({ era: 'modern', supportedVersions: ['2026-07-28', '2025-11-25'] });
    assert.equal(exposureOf('all', dual).exposed, true);
    assert.equal(exposureOf('all', facts({})).exposed, true);
    assert.equal(exposureOf('none', facts({ era: 'modern', legacyHandshake: false })).exposed, false);
    assert.equal(exposureOf(['srv'], dual).exposed, true);
    assert.match(exposureOf(['other'], dual).reason, /not listed in mcpRoundtrip\.chat\.exposeServers/);
    assert.equal(exposureOf('all', facts({ heldBack: 'untrusted' })).exposed, false);
  });

  it('the tool-list version changes with the tools and only with them', () => {
    const tools = [{ name: 'plan_trip', inputSchema: { type: 'object' } }];
    assert.match(toolsVersion(tools), /^[0-9a-f]{16}$/);
    assert.equal(toolsVersion(tools), toolsVersion(JSON.parse(JSON.stringify(tools))));
    assert.notEqual(toolsVersion(tools), toolsVersion([{ ...tools[0], description: 'now described' }]));
    assert.notEqual(toolsVersion(tools), toolsVersion([...tools, { name: 'book_table' }]));
  });
});
