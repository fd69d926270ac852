// The modules a worker evaluates at start-up, from an esbuild metafile (as `wrangler deploy
// --metafile` writes it): those its entry reaches through static imports. A module reached only
// through `import()` is bundled too, but evaluated when first imported.

/** @returns {Map<string, string>} each start-up module and the module that first imports it */
export function startUpModules(metafile) {
  const entry = Object.values(metafile.outputs).find((o) => o.entryPoint)?.entryPoint;
  const importer = new Map(entry ? [[entry, ""]] : []);
  const queue = entry ? [entry] : [];
  while (queue.length > 0) {
    const file = queue.shift();
    for (const { path, kind, external } of metafile.inputs[file]?.imports ?? []) {
      if (external || kind === "dynamic-import" || importer.has(path)) continue;
      importer.set(path, file);
      queue.push(path);
    }
  }
  return importer;
}

/** The chain of static imports from the entry to `module`, entry first. */
export function importChain(importers, module) {
  const chain = [];
  for (let at = module; at; at = importers.get(at)) chain.unshift(at);
  return chain;
}
