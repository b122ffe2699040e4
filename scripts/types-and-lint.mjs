// `npm run types-and-lint`: the type check and lint in one process, as CI runs them. Both need the
// same four TypeScript programs (api/, admin/, shop-widget/ and the root's tests, seeds, scripts and
// benchmark), and the type-aware rules ask the very checker that the type check has already filled:
// built once and handed to ESLint (typescript-eslint's `parserOptions.programs`), and each file
// checked once, the pair costs about half the CPU of `npm run typecheck` and `npm run lint` side by
// side, each building its own. The findings are the same: every file is checked with the tsconfig
// that owns it (scripts/types.mjs), as the project service finds it. The type errors are printed as
// tsc prints them, then ESLint's findings; any of either fails.
//
// `npm run types-and-lint` gives V8 a young generation of 64 MB a half (`--max-semi-space-size=64`,
// against 16): the checker and the rules make short-lived objects by the gigabyte, and fewer, larger
// scavenges cost about 7 % less CPU (77 against 83 CPU-seconds, three runs each); 32 gains little
// and 128 no more. It collects on its own thread alone (`--single-threaded-gc`): V8's helper threads
// cost more CPU than they save here, where the format check runs beside it on the other core (67 to
// 69 against 72 to 73 CPU-seconds, three runs each, a second longer). It optimises its hot functions
// on its own thread too (`--no-concurrent-recompilation`): V8's four helper threads otherwise spend
// about a third of the process's CPU compiling TypeScript's checker and ESLint's rules while the
// main thread goes on (39 of 123 CPU-seconds, read per thread from /proc); on the main thread the
// same run costs about a tenth less (111 and 114 against 122 and 129 CPU-seconds, alternated, the
// gate alone on the machine) and takes some 20 s longer.
import { ESLint } from 'eslint';
import { checkProject, formatErrors, projects, root } from './types.mjs';

const checked = projects.map(checkProject);
const programs = checked.map(({ program }) => program);
const typeErrors = checked.flatMap(({ errors }) => errors);
process.stdout.write(formatErrors(typeErrors, process.stdout.isTTY));

// The TypeScript files take the programs above instead of the project service's; plain JavaScript keeps
// its configuration (no type information). ESLint's cache cannot hold a configuration with programs in
// it, so this run keeps none: it is CI's, on a fresh clone; `npm run lint` is the one with a cache.
const eslint = new ESLint({
  cwd: root,
  overrideConfig: {
    files: ['**/*.{ts,tsx,mts,cts}'],
    languageOptions: { parserOptions: { projectService: false, programs: programs.filter(Boolean) } },
  },
});
const results = await eslint.lintFiles(['.']);
const findings = results.reduce((sum, result) => sum + result.errorCount + result.warningCount, 0);
if (findings) process.stdout.write(await (await eslint.loadFormatter('stylish')).format(results));

process.exitCode = typeErrors.length || findings || programs.includes(undefined) ? 1 : 0;
