/**
 * Tool names for the chat's model: `[A-Za-z0-9_-]{1,64}`, unique across servers, stable; and the
 * prefix VS Code 1.139 gives a bridged server's tools in `lm.tools` (as seen there:
 * `mcp_demo_via_mcp__plan_trip` for the label "demo (via MCP Roundtrip)").
 */
import assert from 'node:assert/strict';
import { bridgedToolPrefix, MAX_TOOL_NAME, modelToolNames } from '../../../src/core/chat/toolNames';

describe('chat tool names', () => {
  it('names each tool <server>_<tool>, cleaned, unique and at most 64 characters', () => {
    const long = 'x'.repeat(80);
    const named = modelToolNames([
      { server: 'demo', tool: 'plan_trip' },
      { server: 'workspace demo', tool: 'plan.trip' },
      { server: 'workspace_demo', tool: 'plan_trip' },
      { server: 'demo', tool: long },
      { server: 'démo', tool: 'plan_trip' },
    ]);
    assert.equal(named[0].name, 'demo_plan_trip');
    assert.equal(named[1].name, 'workspace_demo_plan_trip');
    assert.match(named[2].name, /^workspace_demo_plan_trip_[0-9a-f]{8}$/, 'a clash gets a digest');
    for (const n of named) assert.match(n.name, /^[A-Za-z0-9_-]{1,64}$/);
    assert.ok(named[3].name.length <= MAX_TOOL_NAME);
    assert.equal(new Set(named.map((n) => n.name)).size, named.length);
    assert.deepEqual(
      named.map((n) => [n.server, n.tool]),
      [
        ['demo', 'plan_trip'],
        ['workspace demo', 'plan.trip'],
        ['workspace_demo', 'plan_trip'],
        ['demo', long],
        ['démo', 'plan_trip'],
      ],
    );
    assert.deepEqual(modelToolNames([{ server: 'demo', tool: long }]), modelToolNames([{ server: 'demo', tool: long }]), 'stable');
  });

  it("gives the prefix VS Code gives a bridged server's tools", () => {
    const p = bridgedToolPrefix('demo (via MCP Roundtrip)');
    assert.equal(p.stem, 'mcp_demo_via_mcp_');
    assert.ok(p.rest.test('_plan_trip'));
    assert.ok(p.rest.test('2_plan_trip'), 'a second server with the same stem is numbered');
    assert.equal(bridgedToolPrefix('workspace-demo (via MCP Roundtrip)').stem, 'mcp_workspace-dem');
  });
});
