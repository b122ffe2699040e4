import { closeEngines } from './env.ts';

/** Mocha root hooks: shared databases and the test issuer are closed once, after every suite. */
export const mochaHooks = {
  async afterAll() {
    await closeEngines();
  },
};
