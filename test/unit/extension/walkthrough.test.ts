/**
 * The walkthrough (issue 43): five steps (the demo, the log, your own server, sign-in, chat), each with
 * an image that ships in the .vsix and a completion event; its first step runs the demo's plan_trip in
 * one click (Try the Demo); it opens once by itself, unless VS Code's openOnInstall is off.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { resolvedManifest } from '../../support/manifest';
import { useVscodeStub, VSCODE_STUB } from '../../support/vscodeStub';
import type { CallDeps } from '../../../src/vscode/commands/runCall';
import type { ArgumentsRequest } from '../../../src/vscode/roundPanel/inputUi';

const ROOT = path.resolve(__dirname, '..', '..', '..');
const manifest = resolvedManifest();

interface Step {
  id: string;
  title: string;
  description: string;
  media: { image?: string; altText?: string };
  completionEvents: string[];
}

describe('the walkthrough', () => {
  useVscodeStub();
  let walkthrough: typeof import('../../../src/vscode/shared/walkthrough');
  let demo: typeof import('../../../src/vscode/commands/tryDemo');
  let vscode: Record<string, any>;
  const saved: Record<string, unknown> = {};
  let executed: unknown[][];

  before(() => {
    walkthrough = require('../../../src/vscode/shared/walkthrough') as typeof walkthrough;
    demo = require('../../../src/vscode/commands/tryDemo') as typeof demo;
    vscode = require(VSCODE_STUB) as typeof vscode;
    saved.executeCommand = vscode.commands.executeCommand;
    saved.getConfiguration = vscode.workspace.getConfiguration;
    saved.showInformationMessage = vscode.window.showInformationMessage;
    saved.withProgress = vscode.window.withProgress;
  });
  after(() => {
    vscode.commands.executeCommand = saved.executeCommand;
    vscode.workspace.getConfiguration = saved.getConfiguration;
    vscode.window.showInformationMessage = saved.showInformationMessage;
    vscode.window.withProgress = saved.withProgress;
  });
  beforeEach(() => {
    executed = [];
    vscode.commands.executeCommand = async (...args: unknown[]) => void executed.push(args);
    vscode.workspace.getConfiguration = saved.getConfiguration;
  });

  const walk = () => (manifest.contributes.walkthroughs as { id: string; steps: Step[] }[])[0];
  const commands = new Set((manifest.contributes.commands as { command: string }[]).map((c) => c.command));

  it('has its five steps, each with an image that ships and a completion event', () => {
    assert.equal(walk().id, walkthrough.WALKTHROUGH_ID);
    assert.deepEqual(
      walk().steps.map((s) => s.id),
      ['tryDemo', 'readLog', 'addServer', 'signIn', 'useInChat'],
    );
    const ignore = readFileSync(path.join(ROOT, '.vscodeignore'), 'utf8');
    for (const step of walk().steps) {
      assert.ok(step.media.image && existsSync(path.join(ROOT, step.media.image)), `${step.id}: ${step.media.image} is missing`);
      assert.match(step.media.image, /^media\/walkthrough\/[^/]+\.svg$/);
      assert.ok(step.media.altText, `${step.id} has no altText`);
      assert.ok(step.completionEvents.length > 0, `${step.id} has no completion event`);
      for (const e of step.completionEvents) {
        const command = /^onCommand:(.+)$/.exec(e)?.[1];
        if (command) assert.ok(commands.has(command), `${step.id}: ${command} is not contributed`);
      }
      for (const [, command] of step.description.matchAll(/\(command:([^)?]+)/g))
        assert.ok(commands.has(command) || command.startsWith('workbench.'), `${step.id}: a link runs ${command}, not contributed`);
    }
    assert.match(ignore, /^!media\/walkthrough\/\*\.svg$/m, 'the images ship in the .vsix');
    assert.match(walk().steps[0].description, /\(command:mcpRoundtrip\.tryDemo\)/);
    const tryDemo = (manifest.contributes.commands as { command: string; title: string }[]).find(
      (c) => c.command === 'mcpRoundtrip.tryDemo',
    );
    assert.equal(tryDemo?.title, 'Try the Demo');
  });

  it('opens once by itself, and not when openOnInstall is off', async () => {
    const context = (vscode as any).__context(ROOT, { name: 'mcp-roundtrip', publisher: 'mcp-roundtrip' });
    assert.equal(await walkthrough.openWalkthroughOnce(context, context.globalState), true);
    assert.deepEqual(executed, [['workbench.action.openWalkthrough', 'mcp-roundtrip.mcp-roundtrip#mcpRoundtrip.gettingStarted', false]]);
    assert.equal(await walkthrough.openWalkthroughOnce(context, context.globalState), false, 'the second start opens nothing');
    assert.equal(executed.length, 1);
    const quiet = (vscode as any).__context(ROOT, { name: 'mcp-roundtrip', publisher: 'mcp-roundtrip' });
    vscode.workspace.getConfiguration = () => ({ get: (key: string, d: unknown) => (key === 'walkthroughs.openOnInstall' ? false : d) });
    assert.equal(await walkthrough.openWalkthroughOnce(quiet, quiet.globalState), false);
    assert.equal(executed.length, 1);
  });

  it("Try the Demo opens the demo's plan_trip arguments form in one click; with the demo off it offers the setting", async () => {
    const forms: ArgumentsRequest[] = [];
    const planTrip = { name: 'plan_trip', inputSchema: { type: 'object', properties: { note: { type: 'string' } } } };
    const entry = { name: 'demo', def: { name: 'demo', source: { kind: 'demo', location: 'built-in demo server' } } };
    vscode.window.withProgress = async (_o: unknown, task: () => Promise<unknown>) => task();
    const deps = (registered: boolean) =>
      ({
        registry: {
          get: (name: string) => (registered && name === 'demo' ? entry : undefined),
          connection: async () => ({ list: async () => [{ name: 'book_table', inputSchema: { type: 'object' } }, planTrip] }),
          touch: () => {},
        },
        ui: { collectArguments: async (r: ArgumentsRequest) => (forms.push(r), undefined) },
      }) as unknown as CallDeps;
    await demo.tryDemo(deps(true));
    assert.deepEqual(
      forms.map((f) => [f.server, f.name]),
      [['demo', 'plan_trip']],
    );
    const notes: unknown[][] = [];
    vscode.window.showInformationMessage = async (...a: unknown[]) => (notes.push(a), 'Open Setting');
    await demo.tryDemo(deps(false));
    assert.match(String(notes[0][0]), /demo server is off/);
    assert.deepEqual(executed.at(-1), ['workbench.action.openSettings', 'mcpRoundtrip.demoServer.enabled']);
  });
});
