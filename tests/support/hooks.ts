import { closeEngines } from './env.ts';
import { runEndTasks } from './run-end.ts';

/** Mocha root hooks: shared databases, the test issuer and the shared Chromium are closed once, after every suite. */
export const mochaHooks = {
  async afterAll() {
    await closeEngines();
    await runEndTasks();
  },
};
