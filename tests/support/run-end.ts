/**
 * Work for the end of the whole mocha run, after every suite (hooks.ts runs it): what a helper keeps
 * for the whole process, such as the shared Chromium, is closed there. Outside mocha nothing runs it.
 */
const tasks: (() => Promise<void>)[] = [];

export function atRunEnd(task: () => Promise<void>): void {
  tasks.push(task);
}

export async function runEndTasks(): Promise<void> {
  for (const task of tasks.splice(0)) await task();
}
