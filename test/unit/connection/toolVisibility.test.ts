/** App-only tools (MCP Apps `_meta.ui.visibility: ["app"]`) are not offered to people or models. */
import assert from 'node:assert/strict';
import { callableTools, isAppOnlyTool } from '../../../src/core/connection/toolVisibility';

describe('tool visibility', () => {
  it('["app"] is App-only; ["model"], ["model","app"], none, or a malformed _meta are callable', () => {
    assert.equal(isAppOnlyTool({ name: 'refresh', _meta: { ui: { visibility: ['app'] } } }), true);
    for (const t of [
      { name: 'a', _meta: { ui: { visibility: ['model'] } } },
      { name: 'b', _meta: { ui: { visibility: ['model', 'app'] } } },
      { name: 'c', _meta: { ui: { resourceUri: 'ui://x' } } },
      { name: 'd', _meta: { ui: { visibility: [] } } },
      { name: 'e', _meta: { ui: 'app' } },
      { name: 'f' },
    ])
      assert.equal(isAppOnlyTool(t), false, t.name);
  });

  it('callableTools keeps the order and drops only the App-only ones', () => {
    const tools = [{ name: 'show' }, { name: 'refresh', _meta: { ui: { visibility: ['app'] } } }, { name: 'save' }];
    assert.deepEqual(
      callableTools(tools).map((t) => t.name),
      ['show', 'save'],
    );
  });
});
