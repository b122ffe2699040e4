import path from 'node:path';
import ts from 'typescript';

// Finds every English message id the API can answer with, by reading api/src with the TypeScript
// compiler: a literal is a message id where the code expects a Text (api/src/language/messages.ts: the
// parameter of badRequest, HttpError, CounterError, Invalid, a FieldErrors value, …), where it is the
// first argument of tr(), and, in zod schemas, where it is a check's message or an `error`/`message`
// option. A message built from pieces (a template with ${…} or a "+") where one is expected is a
// problem: its figures must be named placeholders of tr(), so that the sentence has one id.

const root = path.resolve(import.meta.dirname, '../..');

/** zod's methods whose string argument is the message shown when the check fails. */
const zodChecks = new Set([
  'min',
  'max',
  'length',
  'regex',
  'int',
  'positive',
  'nonnegative',
  'negative',
  'refine',
  'email',
  'url',
  'uuid',
  'date',
  'gt',
  'gte',
  'lt',
  'lte',
  'multipleOf',
]);

/** Options and parameters of schema helpers that hold the message shown when a check fails. */
const messageNames = new Set(['error', 'message', 'required']);

export interface MessageScan {
  /** Each id with the places (file:line) that use it. */
  ids: Map<string, string[]>;
  /** Places where a message is assembled instead of named by an id. */
  problems: string[];
}

/** Whether a place takes a Text (a sentence or a Message), and nothing else (a CSV cell also takes data). */
function isTextType(type: ts.Type | undefined): boolean {
  if (!type) return false;
  const parts = type.isUnion() ? type.types : [type];
  const isMessage = (part: ts.Type) =>
    part.getSymbol()?.getName() === 'Message' &&
    Boolean(part.getSymbol()?.declarations?.[0]?.getSourceFile().fileName.endsWith('/messages.ts'));
  const textual = (part: ts.Type) => isMessage(part) || part.flags & (ts.TypeFlags.StringLike | ts.TypeFlags.Undefined);
  return parts.some(isMessage) && parts.every(textual);
}

export function scanMessageIds(): MessageScan {
  const config = ts.getParsedCommandLineOfConfigFile(
    path.join(root, 'api/tsconfig.json'),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: () => undefined,
    },
  );
  if (!config) throw new Error('api/tsconfig.json could not be read');
  // Only api/src's own files: a message is a parameter of ours (Text), never of a library's, and the
  // packages' declarations (Stripe's, Koa's, knex's, Node's, the DOM's) were most of the scan's cost;
  // a call into a package reads as `any` here, which takes no Text.
  const options = { ...config.options, noEmit: true, types: [], lib: ['lib.es2023.d.ts'] };
  const host = ts.createCompilerHost(options);
  host.resolveModuleNameLiterals = (literals, containingFile, redirectedReference, compilerOptions) =>
    literals.map((literal) => {
      const { resolvedModule } = ts.resolveModuleName(
        literal.text,
        containingFile,
        compilerOptions,
        host,
        undefined,
        redirectedReference,
      );
      return { resolvedModule: resolvedModule?.isExternalLibraryImport ? undefined : resolvedModule };
    });
  const program = ts.createProgram(config.fileNames, options, host);
  const checker = program.getTypeChecker();
  const ids = new Map<string, string[]>();
  const problems: string[] = [];

  // Command-line tools (api/src/cli/) speak English to the operator; they answer no HTTP request.
  const sources = program
    .getSourceFiles()
    .filter(
      (file) =>
        file.fileName.startsWith(path.join(root, 'api/src/')) &&
        !file.fileName.startsWith(path.join(root, 'api/src/cli/')),
    );
  const zodFiles = new Set(
    sources
      .filter((file) =>
        file.statements.some(
          (s) => ts.isImportDeclaration(s) && ts.isStringLiteral(s.moduleSpecifier) && s.moduleSpecifier.text === 'zod',
        ),
      )
      .map((file) => file.fileName),
  );

  for (const file of sources) {
    const usesZod = zodFiles.has(file.fileName);
    const where = (node: ts.Node) =>
      `${path.relative(root, file.fileName)}:${file.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
    const add = (id: string, node: ts.Node) => ids.set(id, [...(ids.get(id) ?? []), where(node)]);

    /** A message expression: literals are ids, consts are followed, pieces are a problem. */
    const collect = (node: ts.Expression): void => {
      if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) add(node.text, node);
      else if (ts.isParenthesizedExpression(node)) collect(node.expression);
      else if (ts.isConditionalExpression(node)) {
        collect(node.whenTrue);
        collect(node.whenFalse);
      } else if (ts.isArrowFunction(node) && !ts.isBlock(node.body)) collect(node.body);
      else if (
        ts.isTemplateExpression(node) ||
        (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.PlusToken)
      )
        problems.push(`${where(node)}: a message assembled from pieces; use tr() with named placeholders`);
      else if (ts.isIdentifier(node)) {
        const declaration = checker.getSymbolAtLocation(node)?.valueDeclaration;
        if (declaration && ts.isVariableDeclaration(declaration) && declaration.initializer) {
          const init = declaration.initializer;
          if (ts.isStringLiteral(init) || ts.isNoSubstitutionTemplateLiteral(init) || ts.isTemplateExpression(init))
            collect(init);
        }
      }
    };

    const visit = (node: ts.Node): void => {
      if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'tr') {
        const [id] = node.arguments;
        if (id && (ts.isStringLiteral(id) || ts.isNoSubstitutionTemplateLiteral(id))) add(id.text, id);
        else if (id) problems.push(`${where(id)}: tr() needs the English sentence itself as its first argument`);
        // A placeholder's string is a figure and stays as it is: a sentence typed Text there would
        // reach a German reader in English.
        const params = node.arguments[1];
        if (params && ts.isObjectLiteralExpression(params))
          for (const property of params.properties)
            if (
              ts.isPropertyAssignment(property) &&
              checker.getTypeAtLocation(property.initializer).aliasSymbol?.getName() === 'Text'
            )
              problems.push(`${where(property)}: a sentence in a placeholder is never translated; pass asMessage(…)`);
      } else if (
        ts.isStringLiteral(node) ||
        ts.isNoSubstitutionTemplateLiteral(node) ||
        ts.isConditionalExpression(node) ||
        ts.isTemplateExpression(node) ||
        (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.PlusToken)
      ) {
        const parent = node.parent;
        const inTr =
          ts.isCallExpression(parent) && ts.isIdentifier(parent.expression) && parent.expression.text === 'tr';
        if (!inTr && !ts.isConditionalExpression(parent) && isTextType(checker.getContextualType(node))) collect(node);
      } else if (ts.isIdentifier(node) && isTextType(checker.getContextualType(node))) {
        collect(node);
      }
      if (usesZod) {
        if (
          ts.isCallExpression(node) &&
          ts.isPropertyAccessExpression(node.expression) &&
          zodChecks.has(node.expression.name.text)
        ) {
          for (const arg of node.arguments)
            if (!ts.isArrowFunction(arg) && !ts.isObjectLiteralExpression(arg) && !ts.isNumericLiteral(arg))
              collect(arg);
        }
        if (ts.isPropertyAssignment(node) && ts.isIdentifier(node.name) && messageNames.has(node.name.text))
          collect(node.initializer);
      }
      // A schema helper's parameter named like a message (formField's `required`, a converter's `message`).
      if (ts.isCallExpression(node) || ts.isNewExpression(node)) {
        const signature = checker.getResolvedSignature(node);
        node.arguments?.forEach((arg, i) => {
          const parameter = signature?.parameters[i]?.valueDeclaration;
          if (
            parameter &&
            ts.isParameter(parameter) &&
            ts.isIdentifier(parameter.name) &&
            messageNames.has(parameter.name.text) &&
            zodFiles.has(parameter.getSourceFile().fileName)
          )
            collect(arg);
        });
      }
      ts.forEachChild(node, visit);
    };
    visit(file);
  }
  return { ids, problems };
}
