import { setLogSilent } from '../../api/src/foundations/log.ts';

/** The lines the app logs while `action` runs (the suites are silent otherwise). */
export async function capturedLog(action: () => Promise<unknown>): Promise<string[]> {
  const chunks: string[] = [];
  const write = process.stdout.write.bind(process.stdout);
  process.stdout.write = (chunk: string | Uint8Array) => {
    chunks.push(String(chunk));
    return true;
  };
  setLogSilent(false);
  try {
    await action();
  } finally {
    setLogSilent(process.env.TEST_LOG !== '1');
    process.stdout.write = write;
  }
  return chunks.join('').split('\n').filter(Boolean);
}
