// `npm run types-and-lint`: the type check and lint in one process, as CI runs them. Both need the
// same four TypeScript programs (api/, admin/, shop-widget/ and the root's tests, seeds, scripts and
// benchmark), and the type-aware rules ask the very checker that the type check has already filled:
// built once and handed to ESLint (typescript-eslint's `parserOptions.programs`), and each file
// checked once, the pair costs about half the CPU of `npm run typecheck` and `npm run lint` side by
// side, each building its own. The findings are the same: every file is checked with the tsconfig
// that owns it, as the project service finds it (the first program holding a file is its own: api/
// before the root, which imports it). The type errors are printed as tsc prints them, then ESLint's
// findings; any of either fails.
import path from 'node:path';
import { ESLint } from 'eslint';
import ts from 'typescript';

const root = path.resolve(import.meta.dirname, '..');
const projects = ['api/tsconfig.json', 'admin/tsconfig.json', 'shop-widget/tsconfig.json', 'tsconfig.json'];

const configErrors = [];
const programs = projects.map((project) => {
  const parsed = ts.getParsedCommandLineOfConfigFile(path.join(root, project), undefined, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (diagnostic) => configErrors.push(diagnostic),
  });
  if (!parsed) return undefined;
  configErrors.push(...parsed.errors);
  return ts.createProgram({ rootNames: parsed.fileNames, options: parsed.options });
});

// The root's program also holds the api/, admin/ and shop-widget/ files its tests import: those were
// checked already, in the program that owns them.
const owned = new Set();
const typeErrors = [
  ...configErrors,
  ...programs.flatMap((program) => {
    if (!program) return [];
    const files = program.getSourceFiles().filter((file) => !owned.has(file.fileName));
    for (const file of files) owned.add(file.fileName);
    return ts.sortAndDeduplicateDiagnostics([
      ...program.getConfigFileParsingDiagnostics(),
      ...program.getOptionsDiagnostics(),
      ...files.flatMap((file) => program.getSyntacticDiagnostics(file)),
      ...program.getGlobalDiagnostics(),
      ...files.flatMap((file) => program.getSemanticDiagnostics(file)),
    ]);
  }),
];
if (typeErrors.length) {
  const host = { getCanonicalFileName: (name) => name, getCurrentDirectory: () => root, getNewLine: () => '\n' };
  process.stdout.write(
    process.stdout.isTTY
      ? ts.formatDiagnosticsWithColorAndContext(typeErrors, host)
      : ts.formatDiagnostics(typeErrors, host),
  );
  process.stdout.write(`\nFound ${typeErrors.length} type error${typeErrors.length === 1 ? '' : 's'}.\n`);
}

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
