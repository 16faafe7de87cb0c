// Every tool the server offers, in the order tools/list shows them.

import type { Tool } from '../tool.js';
import { advanceTools } from './advance.js';
import { debugTools } from './debug.js';
import { ecsTools } from './ecs.js';
import { sceneTools } from './scene.js';
import { evalTools } from './eval.js';
import { jobTools } from './jobs.js';
import { logTools } from './logs.js';
import { queueTools } from './queue.js';
import { screenshotTools } from './screenshot.js';
import { sessionTools } from './session.js';
import { typeTools } from './types.js';
import { watchTools } from './watch.js';

export const ALL_TOOLS: readonly Tool[] = [
  ...sessionTools,
  ...queueTools,
  ...typeTools,
  ...evalTools,
  ...screenshotTools,
  ...logTools,
  ...advanceTools,
  ...sceneTools,
  ...ecsTools,
  ...debugTools,
  ...watchTools,
  ...jobTools,
];
