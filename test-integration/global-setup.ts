import { buildFixture } from '../fixtures/build.js';

/** Builds the fixture game once before the integration tests (cached by content hash). */
export default async function setup(): Promise<void> {
  await buildFixture();
}
