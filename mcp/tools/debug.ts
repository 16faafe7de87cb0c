// The debugger tools, in the order tools/list shows them: breakpoints (debug-breakpoint-tools.ts)
// and the paused game (debug-pause-tools.ts), over the shared schemas of debug-format.ts.

import {
  debugBreakOnException,
  debugLocations,
  debugRemoveBreakpoint,
  debugSetBreakpoint,
} from './debug-breakpoint-tools.js';
import {
  debugEvaluate,
  debugPauseState,
  debugStatus,
  debugStep,
  debugWait,
} from './debug-pause-tools.js';
import { debugTrace } from './debug-trace-tool.js';

export const debugTools = [
  debugSetBreakpoint,
  debugBreakOnException,
  debugRemoveBreakpoint,
  debugStatus,
  debugWait,
  debugPauseState,
  debugEvaluate,
  debugStep,
  debugLocations,
  debugTrace,
];
