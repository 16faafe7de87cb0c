#!/usr/bin/env node
// The `unity-devtools` command. The MCP server and the people-facing commands come with the
// mcp/ layer (see README.md, Status); until then this entry answers --version and --help and
// refuses everything else with a clear message and a failing exit code.

import { readFileSync } from 'node:fs';

/** package.json sits one level up from the sources and two from the compiled dist/mcp/. */
function readPackage(): { version: string } {
  for (const rel of ['../package.json', '../../package.json']) {
    try {
      const pkg = JSON.parse(readFileSync(new URL(rel, import.meta.url), 'utf8')) as {
        name?: string;
        version: string;
      };
      if (pkg.name === 'unity-devtools') return pkg;
    } catch {
      // not this level
    }
  }
  return { version: 'unknown' };
}

const pkg = readPackage();

const HELP = `unity-devtools ${pkg.version}: drive a running Unity (Mono) development build over the
Mono Soft Debugger protocol.

usage: unity-devtools --version | --help

The MCP server and the status/eval/types/screenshot/logs commands are not available in this
version yet.`;

function main(argv: string[]): number {
  const [first] = argv;
  if (first === '--version' || first === '-v') {
    process.stdout.write(`${pkg.version}\n`);
    return 0;
  }
  if (first === '--help' || first === '-h' || first === undefined) {
    process.stdout.write(`${HELP}\n`);
    return first === undefined ? 2 : 0;
  }
  process.stderr.write(`unity-devtools: unknown command "${first}" (see --help)\n`);
  return 2;
}

process.exitCode = main(process.argv.slice(2));
