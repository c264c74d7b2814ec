/**
 * Lasting chat rules (issue 43), the core: a stored value read defensively and bounded, which rule
 * lets a tool run (by name, or as a read-only tool of its server),
 * adding and resetting.
 */
import assert from 'node:assert/strict';
import {
  MAX_RULE_NAME_CHARS,
  MAX_RULE_TOOLS,
  allowingRule,
  readChatRules,
  withChatRule,
  withoutChatRules,
} from '../../../src/core/chat/chatRules';

describe('lasting chat rules', () => {
  it('reads only well-formed rules from storage, bounded, and nothing from anything else', () => {
    assert.deepEqual(readChatRules(undefined), {});
    assert.deepEqual(readChatRules('x'), {});
    assert.deepEqual(readChatRules([{ tools: ['a'] }]), {});
    const long = 't'.repeat(MAX_RULE_NAME_CHARS + 1);
    const read = readChatRules({
      demo: { tools: ['search', 'search', 7, '', long], readOnlyTools: 'yes' },
      files: { tools: 'all', readOnlyTools: true },
      empty: { tools: [], readOnlyTools: false },
      broken: null,
      many: { tools: Array.from({ length: MAX_RULE_TOOLS + 5 }, (_, i) => `t${i}`) },
    });
    assert.deepEqual(read.demo, { tools: ['search'], readOnlyTools: false });
    assert.deepEqual(read.files, { tools: [], readOnlyTools: true });
    assert.equal(read.many.tools.length, MAX_RULE_TOOLS);
    assert.deepEqual(Object.keys(read).sort(), ['demo', 'files', 'many']);
  });

  it('a tool runs by its name, or as a read-only tool of a server whose read-only tools are allowed; nothing else', () => {
    const rules = readChatRules({ demo: { tools: ['plan_trip'] }, files: { readOnlyTools: true } });
    assert.deepEqual(allowingRule(rules, 'demo', 'plan_trip', false), { tool: 'plan_trip' });
    assert.equal(allowingRule(rules, 'demo', 'book_table', true), undefined, 'read-only tools of demo are not allowed');
    assert.deepEqual(allowingRule(rules, 'files', 'read_file', true), { readOnlyTools: true });
    assert.equal(allowingRule(rules, 'files', 'write_file', false), undefined, 'a tool not marked read-only still asks');
    assert.equal(allowingRule(rules, 'other', 'plan_trip', false), undefined, 'a rule is for its own server');
    assert.equal(allowingRule(rules, 'toString', 'x', true), undefined);
  });

  it('adds without changing the rules it was given, once per tool; resets one server or all', () => {
    const empty = readChatRules({});
    const one = withChatRule(empty, 'demo', { tool: 'plan_trip' });
    assert.deepEqual(empty, {});
    assert.equal(withChatRule(one, 'demo', { tool: 'plan_trip' }), one);
    const two = withChatRule(one, 'demo', { readOnlyTools: true });
    assert.deepEqual(two.demo, { tools: ['plan_trip'], readOnlyTools: true });
    const three = withChatRule(two, 'files', { tool: 'read_file' });
    assert.deepEqual(Object.keys(withoutChatRules(three, 'demo')), ['files']);
    assert.deepEqual(withoutChatRules(three), {});
    assert.throws(() => withChatRule(empty, '', { tool: 'x' }), /server name/);
    assert.throws(() => withChatRule(empty, 'demo', { tool: 'x'.repeat(MAX_RULE_NAME_CHARS + 1) }), /tool name/);
  });
});
