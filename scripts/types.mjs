// The TypeScript programs of the four projects and their type errors, as `npm run typecheck` and
// `npm run types-and-lint` find them: every file is checked once, in the program of the project that
// owns it (api/, admin/ and shop-widget/ own their folders; the root owns its tests, seeds, scripts
// and benchmark, and what a project's tsconfig leaves out of its folder), although the root's program
// holds the api/, admin/ and shop-widget/ files its tests import too.
import path from 'node:path';
import ts from 'typescript';

export const root = path.resolve(import.meta.dirname, '..');
export const projects = ['api/tsconfig.json', 'admin/tsconfig.json', 'shop-widget/tsconfig.json', 'tsconfig.json'];

/** The folders of the projects other than the root's, each owning what lies in it. */
const ownFolders = projects.map((project) => path.dirname(path.join(root, project))).filter((dir) => dir !== root);

function parse(tsconfig, errors = []) {
  return ts.getParsedCommandLineOfConfigFile(path.join(root, tsconfig), undefined, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (diagnostic) => errors.push(diagnostic),
  });
}

/**
 * Whether the project of `tsconfig` checks `file`: a project checks what lies in its folder; the root
 * checks the rest, and also a file in a project's folder that the project's own tsconfig does not
 * include (api/ holds only src/, the root all of api/), which no other program would check.
 */
function owner(tsconfig) {
  const dir = path.dirname(path.join(root, tsconfig));
  if (dir !== root) return (file) => file.startsWith(dir + path.sep);
  const included = new Set(
    projects.filter((project) => project !== tsconfig).flatMap((project) => parse(project)?.fileNames ?? []),
  );
  return (file) => !ownFolders.some((folder) => file.startsWith(folder + path.sep)) || !included.has(file);
}

/**
 * The files parsed so far in this process, shared by the programs it builds as the language service's
 * DocumentRegistry shares them between projects: keyed by the options that change how a file parses
 * (the registry's own key), and once one checker has bound a file, the next program's binder leaves it
 * as it is. The four projects hold the same libraries (TypeScript's own, Node's, Stripe's, React's)
 * and the root's program most of api/'s files, so each is parsed and bound once instead of up to four
 * times. A declaration file holds no JSX, so the JSX options that set the projects apart leave it out.
 */
const sourceFiles = new Map();
const registry = ts.createDocumentRegistry();

function compilerHost(options) {
  const host = ts.createCompilerHost(options);
  const parseFile = host.getSourceFile;
  const settings = registry.getKeyForCompilationSettings(options);
  const declarationSettings = registry.getKeyForCompilationSettings({
    ...options,
    jsx: undefined,
    jsxImportSource: undefined,
  });
  host.getSourceFile = (fileName, parseOptions, ...rest) => {
    const { languageVersion, impliedNodeFormat, jsDocParsingMode } =
      typeof parseOptions === 'object' ? parseOptions : { languageVersion: parseOptions };
    const key = [
      fileName,
      fileName.endsWith('.d.ts') ? declarationSettings : settings,
      languageVersion,
      impliedNodeFormat,
      jsDocParsingMode,
    ].join('|');
    if (!sourceFiles.has(key)) sourceFiles.set(key, parseFile(fileName, parseOptions, ...rest));
    return sourceFiles.get(key);
  };
  return host;
}

/** The project's program (undefined when its tsconfig cannot be read) and the type errors of its own files. */
export function checkProject(tsconfig) {
  const errors = [];
  const parsed = parse(tsconfig, errors);
  if (!parsed) return { program: undefined, errors };
  const program = ts.createProgram({
    rootNames: parsed.fileNames,
    options: parsed.options,
    host: compilerHost(parsed.options),
  });
  const owns = owner(tsconfig);
  const files = program.getSourceFiles().filter((file) => owns(file.fileName));
  errors.push(
    ...ts.sortAndDeduplicateDiagnostics([
      ...parsed.errors,
      ...program.getConfigFileParsingDiagnostics(),
      ...program.getOptionsDiagnostics(),
      ...files.flatMap((file) => program.getSyntacticDiagnostics(file)),
      ...program.getGlobalDiagnostics(),
      ...files.flatMap((file) => program.getSemanticDiagnostics(file)),
    ]),
  );
  return { program, errors };
}

/** The errors as tsc prints them, with a closing count; nothing when there are none. */
export function formatErrors(errors, colour) {
  if (!errors.length) return '';
  const host = { getCanonicalFileName: (name) => name, getCurrentDirectory: () => root, getNewLine: () => '\n' };
  const text = colour ? ts.formatDiagnosticsWithColorAndContext(errors, host) : ts.formatDiagnostics(errors, host);
  return `${text}\nFound ${errors.length} type error${errors.length === 1 ? '' : 's'}.\n`;
}
