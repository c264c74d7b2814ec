/** Field case F6 (model choice) and the priority heuristic of src/core/sampling/modelChoice.ts. */
import assert from 'node:assert/strict';
import { chooseModel, hintMatches, isAllowed, modelTier, rankByPriorities } from '../../../src/core/sampling/modelChoice';
import { type ModelInfo } from '../../../src/core/sampling/modelNeeds';

const m = (id: string, family = id, extra: Partial<ModelInfo> = {}): ModelInfo => ({ id, name: id, family, vendor: 'test', ...extra });

// F6: the user allowed three models; claude-opus-4 exists but is not allowed; the current chat model
// (the host default) is claude-sonnet-4.
const F6_MODELS = [m('gpt-4.1'), m('claude-sonnet-4'), m('gemini-2.5-flash'), m('claude-opus-4')];
const F6_ALLOWED = ['gpt-4.1', 'claude-sonnet-4', 'gemini-2.5-flash'];
const F6_OPTIONS = { allowList: F6_ALLOWED, defaultModel: 'claude-sonnet-4' };
const ids = (list: ModelInfo[]) => list.map((x) => x.id);

describe('model choice (F6)', () => {
  it('main case: hints [FLASH, sonnet] pick gemini-2.5-flash (first matching hint, case-insensitive)', () => {
    const c = chooseModel(F6_MODELS, { hints: [{ name: 'FLASH' }, { name: 'sonnet' }], speedPriority: 0.9 }, F6_OPTIONS);
    assert.equal(c.model?.id, 'gemini-2.5-flash');
    assert.equal(c.reason, 'hint');
    assert.equal(c.hint, 'FLASH');
  });

  it('no match (ultra-9000): the priorities decide (speed 0.9 → gemini-2.5-flash); without priorities the user default claude-sonnet-4; not an error', () => {
    const c = chooseModel(F6_MODELS, { hints: [{ name: 'ultra-9000' }], speedPriority: 0.9 }, F6_OPTIONS);
    assert.equal(c.model?.id, 'gemini-2.5-flash');
    assert.equal(c.reason, 'priorities');
    assert.deepEqual(c.blockedHints, []);
    const d = chooseModel(F6_MODELS, { hints: [{ name: 'ultra-9000' }] }, F6_OPTIONS);
    assert.equal(d.model?.id, 'claude-sonnet-4');
    assert.equal(d.reason, 'default');
  });

  it('opus is not allowed: hints never widen the allow-list, the choice falls through as with no match', () => {
    const c = chooseModel(F6_MODELS, { hints: [{ name: 'opus' }], speedPriority: 0.9 }, F6_OPTIONS);
    assert.equal(c.model?.id, 'gemini-2.5-flash');
    assert.ok(!ids(c.candidates).includes('claude-opus-4'));
    assert.deepEqual(c.blockedHints, ['opus']);
    assert.equal(chooseModel(F6_MODELS, { hints: [{ name: 'opus' }] }, F6_OPTIONS).model?.id, 'claude-sonnet-4');
  });

  it('hints are evaluated in order: [sonnet, FLASH] picks claude-sonnet-4', () => {
    assert.equal(chooseModel(F6_MODELS, { hints: [{ name: 'sonnet' }, { name: 'FLASH' }] }, F6_OPTIONS).model?.id, 'claude-sonnet-4');
  });

  it('candidates: the chosen model first, then every allowed model, never a disallowed one', () => {
    const c = chooseModel(F6_MODELS, { hints: [{ name: 'flash' }] }, F6_OPTIONS);
    assert.deepEqual(ids(c.candidates), ['gemini-2.5-flash', 'gpt-4.1', 'claude-sonnet-4']);
  });
});

describe('model choice rules', () => {
  it('a hint matches id, family or display name as a case-insensitive substring; empty hints are ignored', () => {
    const x = { id: 'abc-123', family: 'Sonnet-Family', name: 'Pretty Name', vendor: 'v' };
    assert.ok(hintMatches(x, 'ABC'));
    assert.ok(hintMatches(x, 'sonnet'));
    assert.ok(hintMatches(x, 'pretty'));
    assert.ok(!hintMatches(x, 'opus'));
    assert.ok(!hintMatches(x, '  '));
    const c = chooseModel([m('a'), m('b-flash')], { hints: [{ name: '' }, { name: 'flash' }] });
    assert.equal(c.model?.id, 'b-flash');
  });

  it('allow-list entries match id or family exactly, ignoring case; empty list allows all', () => {
    const x = m('test-sonnet-4', 'claude-sonnet');
    assert.ok(isAllowed(x, ['CLAUDE-SONNET']));
    assert.ok(isAllowed(x, ['Test-Sonnet-4']));
    assert.ok(!isAllowed(x, ['sonnet'])); // substring is not enough for the allow-list
    assert.ok(isAllowed(x, []));
    assert.ok(isAllowed(x, undefined));
  });

  it('no model available: no model, and noModel says so (not an error: the person can write the reply)', () => {
    const c = chooseModel([], undefined);
    assert.equal(c.model, undefined);
    assert.equal(c.reason, 'none');
    assert.match(c.noModel ?? '', /No language model is available/);
  });

  it('models exist but none is allowed: noModel names the setting and the models', () => {
    const c = chooseModel([m('a'), m('b')], undefined, { allowList: ['zzz'] });
    assert.equal(c.model, undefined);
    assert.deepEqual(c.candidates, []);
    assert.match(c.noModel ?? '', /allowedModels/);
    assert.match(c.noModel ?? '', /a, b/);
  });

  it('without hint, default and priorities: the first allowed model', () => {
    const c = chooseModel(F6_MODELS, undefined, { allowList: ['claude-sonnet-4', 'gemini-2.5-flash'] });
    assert.equal(c.model?.id, 'claude-sonnet-4');
    assert.equal(c.reason, 'first');
  });

  it('a default that is not allowed is ignored', () => {
    const c = chooseModel(F6_MODELS, undefined, { allowList: F6_ALLOWED, defaultModel: 'claude-opus-4' });
    assert.equal(c.model?.id, 'gpt-4.1');
  });

  it('priorities come before the user default; the default settles equal scores', () => {
    // speed: flash (small) beats the default sonnet (medium)
    assert.equal(chooseModel(F6_MODELS, { speedPriority: 0.9 }, { defaultModel: 'claude-sonnet-4' }).model?.id, 'gemini-2.5-flash');
    // gpt-4.1 and claude-sonnet-4 are both medium: equal for cost 0.5 + intelligence 0.5; the default picks
    const tie = chooseModel(
      [m('gpt-4.1'), m('claude-sonnet-4')],
      { costPriority: 0.5, intelligencePriority: 0.5 },
      { defaultModel: 'claude-sonnet-4' },
    );
    assert.equal(tie.model?.id, 'claude-sonnet-4');
    assert.equal(tie.reason, 'priorities');
  });

  it('without hint or default, priorities choose: speed → flash, intelligence → opus', () => {
    assert.equal(chooseModel(F6_MODELS, { speedPriority: 0.9 }).model?.id, 'gemini-2.5-flash');
    assert.equal(chooseModel(F6_MODELS, { costPriority: 1 }).model?.id, 'gemini-2.5-flash');
    const smart = chooseModel(F6_MODELS, { intelligencePriority: 1 });
    assert.equal(smart.model?.id, 'claude-opus-4');
    assert.equal(smart.reason, 'priorities');
  });

  it('an ambiguous hint is settled by priorities, then by the host default', () => {
    const models = [m('claude-sonnet-4'), m('claude-haiku-4'), m('claude-opus-4')];
    assert.equal(chooseModel(models, { hints: [{ name: 'claude' }], intelligencePriority: 1 }).model?.id, 'claude-opus-4');
    assert.equal(chooseModel(models, { hints: [{ name: 'claude' }], speedPriority: 1 }).model?.id, 'claude-haiku-4');
    assert.equal(chooseModel(models, { hints: [{ name: 'claude' }] }, { defaultModel: 'CLAUDE-OPUS-4' }).model?.id, 'claude-opus-4');
    assert.equal(chooseModel(models, { hints: [{ name: 'claude' }] }).model?.id, 'claude-sonnet-4');
  });

  it('size classes from names: small wins over large (o3-mini), pro/opus large, others medium', () => {
    assert.equal(modelTier(m('o3-mini')), 'small');
    assert.equal(modelTier(m('gemini-2.5-pro')), 'large');
    assert.equal(modelTier(m('x', 'claude-opus')), 'large');
    assert.equal(modelTier(m('gpt-4.1')), 'medium');
    assert.equal(modelTier(m('gpt-4.1-nano')), 'small');
    assert.equal(modelTier(m('llama-3-8b')), 'small');
    assert.equal(modelTier(m('prompty')), 'medium'); // "pro" only as a word
  });

  it('equal scores: a larger context window counts as more capable only when intelligence leads', () => {
    const a = m('a', 'a', { maxInputTokens: 32000 });
    const b = m('b', 'b', { maxInputTokens: 128000 });
    assert.deepEqual(ids(rankByPriorities([a, b], { intelligencePriority: 1 })), ['b', 'a']);
    assert.deepEqual(ids(rankByPriorities([b, a], { speedPriority: 1 })), ['a', 'b']);
    assert.deepEqual(ids(rankByPriorities([a, b], undefined)), ['a', 'b']);
  });
});
