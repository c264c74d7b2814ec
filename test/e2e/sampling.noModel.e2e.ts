/**
 * Sampling in a real VS Code with no language model at all (code-server, the .vsix, no model
 * provider): the review card says so before anything is sent, and the demo's plan_trip completes
 * end to end with the itinerary written in the card; cancelling while writing ends the call as
 * declined, with nothing sent.
 */
import assert from 'node:assert/strict';
import { openWorkbench, screenshot, startCodeServer, type CodeServerHost, type Workbench } from './harness';
import { callTool, logText, makeWorkspace, panel, press, resultText, suiteHooks, VSIX, waitForLog } from './support';

describe('e2e sampling with no language model in VS Code', function () {
  this.timeout(300_000);
  let host: CodeServerHost;
  let wb: Workbench;
  let ws = '';
  before(async () => {
    ws = makeWorkspace();
    host = await startCodeServer({ workspace: ws, vsix: VSIX });
    wb = await openWorkbench(host.url, ws);
  });
  suiteHooks(() => ({ wb, host, ws }), { shotPrefix: 'failure-no-model-', resetEach: true });

  /** plan_trip up to its sampling round: the trip form answered. */
  const toItinerary = async (destination: string) => {
    const page = wb.page;
    await callTool(page, 'demo', 'Plan a trip');
    const f = await panel(page, 'plan_trip', '[data-panel="round"][data-round="1"]');
    await f.getByLabel('Destination', { exact: true }).fill(destination);
    await f.getByLabel('First day', { exact: true }).fill('2026-12-01');
    await f.getByLabel('Last day', { exact: true }).fill('2026-12-02');
    await press(f, 'submit');
    return panel(page, 'plan_trip', '[data-panel="round"][data-round="2"] [data-testid="write-itinerary"]');
  };

  it('plan_trip completes with the itinerary written in the review card', async () => {
    const page = wb.page;
    const r2 = await toItinerary('Lisbon');
    assert.match(await r2.getByTestId('no-model-itinerary').innerText(), /No language model is available in VS Code/);
    assert.equal(await r2.getByTestId('approve-itinerary').isVisible(), false, 'nothing to approve without a model');
    await screenshot(page, 'sampling-no-model-review');
    await press(r2, 'write-itinerary');
    const reply = r2.getByLabel('Reply', { exact: true });
    await reply.fill('Day 1: Alfama and the castle.\nDay 2: Belém.');
    // Escape while writing does not throw the reply away (it would cancel the round before Send reply).
    await reply.press('Escape');
    assert.equal(await r2.getByLabel('Model name', { exact: true }).inputValue(), 'human');
    assert.equal(await r2.getByLabel('Stop reason', { exact: true }).inputValue(), 'endTurn');
    await screenshot(page, 'sampling-no-model-write-reply');
    await press(r2, 'reply-send-itinerary');
    const text = await resultText(page, 'Lisbon');
    assert.match(text, /Itinerary drafted by model "human"/);
    assert.match(text, /Day 1: Alfama and the castle\./);
    const log = await waitForLog(host.logsDir, /← \[demo\] complete id=\d+ after 3 round\(s\)/);
    assert.match(log, /\[demo\] sampling "itinerary": no model can answer: No language model is available/);
    assert.match(
      log,
      /↳ \[demo\] round 2 itinerary: model human, text 43 chars, stopReason endTurn; written by a person in the review card \(no allowed model could answer\)/,
    );
    assert.match(log, /↳ \[demo\] round 3 roots: 1 root\(s\)/);
    assert.ok(!log.includes('Alfama'), 'what the person wrote never reaches the log');
  });

  it('cancel while writing: the call ends as declined and no retry carries the reply', async () => {
    const r2 = await toItinerary('Porto');
    await press(r2, 'write-itinerary');
    await r2.getByLabel('Reply', { exact: true }).fill('Day 1: Ribeira.');
    await press(r2, 'cancel');
    const log = await waitForLog(
      host.logsDir,
      /✖ \[demo\] tools\/call plan_trip failed in round 2: .*You declined the sampling request "itinerary" of demo \(you cancelled the round\)/,
    );
    assert.ok(!/round 2 itinerary: model human, text 15 chars/.test(log), 'the written reply was not sent');
    assert.ok(!logText(host.logsDir).includes('Ribeira'));
  });
});
