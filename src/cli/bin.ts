#!/usr/bin/env node
/**
 * The `mcp-roundtrip` executable (dist/cli.js). It starts the `--stdio` server first thing, then
 * loads the host (dist/cli-main.js, `main.ts`, through V8's code cache: `compileCache.ts`) while that
 * server starts: both take about as long, and one after the other they were most of a cold call.
 * Nothing else happens here; a command line the host will refuse starts nothing.
 */
import { join } from 'node:path';
import { loadBundle } from './compileCache';
import { startStdioServer } from './prestart';

const early = startStdioServer(process.argv.slice(2));
loadBundle(join(__dirname, 'cli-main.js')).runAsExecutable(early);
