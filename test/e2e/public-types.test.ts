/**
 * Every type a public signature uses is exported too (issue 11): walk the entry points' exports with the
 * TypeScript checker, collect the named types their signatures mention (parameters, return types,
 * members, type arguments), and expect each one the package declares to be exported by an entry point.
 */
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../..');
const ENTRIES = [join(ROOT, 'src/index.ts'), join(ROOT, 'src/rules-entry.ts'), join(ROOT, 'src/client/index.ts'), join(ROOT, 'src/traffic/index.ts')];

describe('the public API', () => {
  it('exports every type its exported signatures use', () => {
    const program = ts.createProgram(ENTRIES, {
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      target: ts.ScriptTarget.ES2022,
      strict: true,
      lib: ['lib.es2023.d.ts', 'lib.esnext.disposable.d.ts'],
      types: ['node'],
    });
    const checker = program.getTypeChecker();
    const exported = new Set<ts.Symbol>();
    const publicSymbols: ts.Symbol[] = [];
    for (const entry of ENTRIES) {
      const source = program.getSourceFile(entry);
      const module = source === undefined ? undefined : checker.getSymbolAtLocation(source);
      if (module === undefined) throw new Error(`no module symbol for ${entry}`);
      for (const s of checker.getExportsOfModule(module)) {
        const target = s.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(s) : s;
        exported.add(target);
        publicSymbols.push(target);
      }
    }
    const ours = (s: ts.Symbol) => (s.declarations ?? []).some((d) => d.getSourceFile().fileName.startsWith(join(ROOT, 'src')));
    const missing = new Map<string, string>();
    const seen = new Set<ts.Type>();
    const visitType = (type: ts.Type, from: string, depth: number): void => {
      if (seen.has(type) || depth > 6) return;
      seen.add(type);
      const named = type.aliasSymbol ?? type.getSymbol();
      if (named !== undefined && ours(named) && named.flags & (ts.SymbolFlags.Interface | ts.SymbolFlags.TypeAlias | ts.SymbolFlags.Class | ts.SymbolFlags.Enum)) {
        if (!exported.has(named)) missing.set(named.getName(), from);
      }
      for (const arg of type.aliasTypeArguments ?? []) visitType(arg, from, depth + 1);
      if (type.isUnionOrIntersection()) for (const t of type.types) visitType(t, from, depth + 1);
      for (const sig of [...type.getCallSignatures(), ...type.getConstructSignatures()]) visitSignature(sig, from, depth + 1);
      // Members of our own object types (options, results), not of library or built-in ones.
      if (named === undefined || ours(named)) {
        for (const prop of type.getProperties()) {
          const decl = prop.valueDeclaration ?? prop.declarations?.[0];
          // Private and protected members are not part of the API.
          if (decl !== undefined && ts.getCombinedModifierFlags(decl as ts.Declaration) & (ts.ModifierFlags.Private | ts.ModifierFlags.Protected)) continue;
          if (decl !== undefined && decl.getSourceFile().fileName.startsWith(join(ROOT, 'src'))) visitType(checker.getTypeOfSymbolAtLocation(prop, decl), `${from}.${prop.getName()}`, depth + 1);
        }
      }
    };
    const visitSignature = (sig: ts.Signature, from: string, depth: number) => {
      for (const p of sig.getParameters()) {
        const decl = p.valueDeclaration;
        if (decl !== undefined) visitType(checker.getTypeOfSymbolAtLocation(p, decl), `${from}(${p.getName()})`, depth);
      }
      visitType(sig.getReturnType(), `${from}()`, depth);
    };
    for (const s of publicSymbols) {
      const decl = s.valueDeclaration ?? s.declarations?.[0];
      if (decl === undefined) continue;
      const type = s.flags & (ts.SymbolFlags.Interface | ts.SymbolFlags.TypeAlias) ? checker.getDeclaredTypeOfSymbol(s) : checker.getTypeOfSymbolAtLocation(s, decl);
      visitType(type, s.getName(), 0);
    }
    expect(Object.fromEntries(missing)).toEqual({});
  });
});
