#!/usr/bin/env node
/**
 * The demo server's executable (dist/demo-server.js). It loads the server (dist/demo-server-main.js,
 * `main.ts`) through V8's code cache (`../cli/compileCache.ts`): compiling the 850 KB bundle was a
 * fifth of its start, and every cold call of a client waits for that start.
 */
import { join } from 'node:path';
import { loadBundle } from '../cli/compileCache';

loadBundle<unknown>(join(__dirname, 'demo-server-main.js'));
