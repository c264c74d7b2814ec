// Every demo tool, in the order tools/list shows them.
import type { DemoTool } from '../tool';
import { askUntilValid } from './askUntilValid';
import { bookTable } from './bookTable';
import { busyReport } from './busyReport';
import { connectAccount } from './connectAccount';
import { echoState } from './echoState';
import { planTrip } from './planTrip';
import { whereAmI } from './whereAmI';

/** The demo's tools; their names are a contract other parts of the project test against. */
export const DEMO_TOOLS: readonly DemoTool[] = [bookTable, planTrip, connectAccount, busyReport, askUntilValid, echoState, whereAmI];
