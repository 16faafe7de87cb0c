// The ECS tools, in the order tools/list shows them: reads (ecs-read-tools.ts), writes with the
// destructive gate (ecs-write-tools.ts) and undo of every write made here (undo-tool.ts), over
// the shared schemas of ecs-format.ts.

import {
  ecsGetBuffer,
  ecsGetComponent,
  ecsListComponents,
  ecsQuery,
  ecsWorlds,
} from './ecs-read-tools.js';
import {
  ecsBufferEdit,
  ecsCreateEntity,
  ecsDestroyEntity,
  ecsSetComponent,
} from './ecs-write-tools.js';
import { undoTool } from './undo-tool.js';

export { undoTool };

export const ecsTools = [
  ecsWorlds,
  ecsQuery,
  ecsListComponents,
  ecsGetComponent,
  ecsSetComponent,
  ecsGetBuffer,
  ecsBufferEdit,
  ecsCreateEntity,
  ecsDestroyEntity,
  undoTool,
];
