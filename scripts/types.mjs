// The TypeScript programs of the four projects and their type errors, as `npm run typecheck` and
// `npm run types-and-lint` find them: every file is checked once, in the program of the project that
// owns it (api/, admin/ and shop-widget/ own their folders; the root owns its tests, seeds, scripts
// and benchmark), although the root's program holds the api/, admin/ and shop-widget/ files its
// tests import too.
import path from 'node:path';
import ts from 'typescript';

export const root = path.resolve(import.meta.dirname, '..');
export const projects = ['api/tsconfig.json', 'admin/tsconfig.json', 'shop-widget/tsconfig.json', 'tsconfig.json'];

/** The folders of the projects other than the root's, each owning what lies in it. */
const ownFolders = projects.map((project) => path.dirname(path.join(root, project))).filter((dir) => dir !== root);

/** Whether the project of `tsconfig` owns `file`: the innermost project folder holding it. */
function owns(tsconfig, file) {
  const dir = path.dirname(path.join(root, tsconfig));
  const inner = ownFolders.find((folder) => file.startsWith(folder + path.sep));
  return dir === root ? !inner : inner === dir;
}

/** The project's program (undefined when its tsconfig cannot be read) and the type errors of its own files. */
export function checkProject(tsconfig) {
  const errors = [];
  const parsed = ts.getParsedCommandLineOfConfigFile(path.join(root, tsconfig), undefined, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (diagnostic) => errors.push(diagnostic),
  });
  if (!parsed) return { program: undefined, errors };
  const program = ts.createProgram({ rootNames: parsed.fileNames, options: parsed.options });
  const files = program.getSourceFiles().filter((file) => owns(tsconfig, file.fileName));
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
