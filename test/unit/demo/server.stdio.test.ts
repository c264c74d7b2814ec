// The built demo server over stdio, on both eras: every flow to completion, and -32021 when a
// capability is missing.
import * as assert from 'node:assert/strict';
import { connectDemo, ensureDemoBuilt, firstText, rejection, type DemoConnection, type Era } from '../../support/demoHarness';
import { flowTests } from '../../support/demoFlows';

for (const era of ['modern', 'legacy'] as Era[]) {
  describe(`demo server over stdio, ${era === 'modern' ? '2026-07-28' : '2025 (legacy shim)'} era`, function () {
    this.timeout(30_000);
    let conn: DemoConnection | undefined;

    before(async () => {
      await ensureDemoBuilt();
      conn = await connectDemo({ era, where: { kind: 'stdio' } });
    });
    after(async () => conn?.close());

    it('lists the contract names with titles and descriptions', async () => {
      const { client } = conn!;
      const tools = (await client.listTools()).tools;
      assert.deepEqual(
        tools.map((t) => t.name),
        ['book_table', 'plan_trip', 'connect_account', 'busy_report', 'ask_until_valid', 'echo_state', 'where_am_i'],
      );
      const prompts = (await client.listPrompts()).prompts;
      const resources = (await client.listResources()).resources;
      assert.deepEqual(
        prompts.map((p) => p.name),
        ['code_review'],
      );
      assert.deepEqual(
        resources.map((r) => r.uri),
        ['demo://secret-note'],
      );
      for (const item of [...tools, ...prompts, ...resources]) {
        assert.ok(item.title && item.title.length > 3, `${item.name} has no title`);
        assert.ok(item.description && item.description.length > 30, `${item.name} has no description`);
      }
    });

    flowTests(() => conn!);

    it('where_am_i: asks roots/list once (key "roots") and lists the roots it was given', async () => {
      const { client, host } = conn!;
      host.reset({
        roots: () => ({ roots: [{ uri: 'file:///home/ada/project', name: 'project' }, { uri: 'file:///srv/shared%20docs' }] }),
      });
      const result = await client.callTool({ name: 'where_am_i', arguments: {} });
      assert.deepEqual(
        host.seen.map((s) => s.method),
        ['roots/list'],
      );
      if (era === 'modern') assert.equal(host.seen[0].id, 'roots');
      assert.notEqual(result.isError, true);
      assert.equal(
        firstText(result),
        'Your host shares 2 workspace roots with servers:\n- project: file:///home/ada/project (/home/ada/project)\n- (unnamed): file:///srv/shared%20docs (/srv/shared docs)',
      );
      assert.deepEqual(result.structuredContent, {
        count: 2,
        roots: [
          { uri: 'file:///home/ada/project', name: 'project', path: '/home/ada/project' },
          { uri: 'file:///srv/shared%20docs', name: null, path: '/srv/shared docs' },
        ],
      });
      const tool = (await client.listTools()).tools.find((t) => t.name === 'where_am_i');
      assert.equal(tool?.title, 'Where am I?');
    });

    it('where_am_i: an empty roots list is answered, not an error', async () => {
      const { client, host } = conn!;
      host.reset({ roots: () => ({ roots: [] }) });
      const result = await client.callTool({ name: 'where_am_i', arguments: {} });
      assert.equal(host.seen.length, 1);
      assert.match(firstText(result), /^Your host shares no workspace roots/);
      assert.deepEqual(result.structuredContent, { count: 0, roots: [] });
    });
  });

  describe(`demo server over stdio, ${era} era, missing client capabilities`, function () {
    this.timeout(30_000);
    const opened: DemoConnection[] = [];
    const open = async (capabilities: object) => {
      const conn = await connectDemo({ era, where: { kind: 'stdio' }, capabilities });
      opened.push(conn);
      return conn;
    };

    before(() => ensureDemoBuilt());
    after(async () => {
      await Promise.all(opened.map((c) => c.close()));
    });

    it('answers -32021 listing exactly what each tool, the prompt and the resource lack', async () => {
      const none = await open({});
      for (const name of ['book_table', 'ask_until_valid', 'echo_state']) {
        const error = await rejection(() => none.client.callTool({ name, arguments: {} }));
        assert.equal(error.code, -32021, `${name}: ${error.message}`);
        assert.deepEqual((error.data as { requiredCapabilities: unknown }).requiredCapabilities, { elicitation: { form: {} } });
      }
      const prompt = await rejection(() => none.client.getPrompt({ name: 'code_review', arguments: { code: 'x' } }));
      assert.equal(prompt.code, -32021);
      const resource = await rejection(() => none.client.readResource({ uri: 'demo://secret-note' }));
      assert.equal(resource.code, -32021);
      assert.deepEqual((resource.data as { requiredCapabilities: unknown }).requiredCapabilities, { elicitation: { form: {} } });
      const where = await rejection(() => none.client.callTool({ name: 'where_am_i', arguments: {} }));
      assert.equal(where.code, -32021, where.message);
      assert.deepEqual((where.data as { requiredCapabilities: unknown }).requiredCapabilities, { roots: {} });
      // A tool that asks nothing still works without capabilities.
      assert.match(
        ((await none.client.callTool({ name: 'busy_report', arguments: {} })).content as Array<{ text: string }>)[0].text,
        /is ready/,
      );
    });

    it('checks the whole flow up front: plan_trip with forms only lacks sampling and roots; connect_account lacks elicitation.url', async () => {
      const formOnly = await open({ elicitation: { form: {} } });
      formOnly.host.script.elicit = () => {
        throw new Error('must not be asked: the flow cannot finish');
      };
      const trip = await rejection(() => formOnly.client.callTool({ name: 'plan_trip', arguments: {} }));
      assert.equal(trip.code, -32021);
      assert.deepEqual((trip.data as { requiredCapabilities: unknown }).requiredCapabilities, { sampling: {}, roots: {} });
      assert.match(trip.message, /sampling, roots/);
      const connect = await rejection(() => formOnly.client.callTool({ name: 'connect_account', arguments: {} }));
      assert.equal(connect.code, -32021);
      assert.deepEqual((connect.data as { requiredCapabilities: unknown }).requiredCapabilities, { elicitation: { url: {} } });
      assert.deepEqual(formOnly.host.seen, []);
    });

    it('a bare elicitation: {} counts as form support, not URL support', async () => {
      const bare = await open({ elicitation: {} });
      bare.host.script.elicit = () => ({ action: 'decline' });
      const booked = await bare.client.callTool({ name: 'book_table', arguments: {} });
      assert.match((booked.content as Array<{ text: string }>)[0].text, /^Nothing was booked/);
      const connect = await rejection(() => bare.client.callTool({ name: 'connect_account', arguments: {} }));
      assert.deepEqual((connect.data as { requiredCapabilities: unknown }).requiredCapabilities, { elicitation: { url: {} } });
    });
  });
}
