// A stand-in server process for lifetime tests: attaches a GameSession to a game, takes a hold
// (the game is then frozen), installs the lifetime triggers and waits. A test then closes its
// stdin, signals it, or kills its parent, and checks the game was resumed and released.
//
// usage: node --import tsx session-host.ts <port> [--no-stdin]

import { installLifetime } from '../../unity/lifetime.js';
import { GameSession } from '../../unity/session/session.js';

const port = Number(process.argv[2]);
const watchStdin = !process.argv.includes('--no-stdin');
const session = new GameSession({ log: (m) => process.stderr.write(`${m}\n`) });
await session.attach({ kind: 'endpoint', host: '127.0.0.1', port });
await session.hold('host');
installLifetime(() => session.shutdown(), {
  ...(watchStdin ? { stdin: process.stdin } : {}),
  log: (m) => process.stderr.write(`lifetime: ${m}\n`),
});
if (watchStdin) process.stdin.resume();
process.stdout.write('HOLDING\n');
setInterval(() => undefined, 1 << 30); // stay alive until a trigger fires
