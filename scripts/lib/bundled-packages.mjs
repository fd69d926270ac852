// The npm packages in an esbuild metafile's output (as `wrangler deploy --metafile` writes it):
// per package, the bytes it adds to the script and the files outside it that import it.

const packageOf = (path) => {
  const at = path.lastIndexOf("node_modules/");
  if (at < 0) return null;
  const [scope, name] = path.slice(at + "node_modules/".length).split("/");
  return scope?.startsWith("@") ? `${scope}/${name}` : scope;
};

/** The script's input files that add bytes to it, with those bytes. */
function scriptInputs(metafile) {
  const output = Object.entries(metafile.outputs).find(([file]) => file.endsWith(".js"))?.[1];
  return Object.entries(output?.inputs ?? {})
    .map(([file, { bytesInOutput }]) => [file, bytesInOutput])
    .filter(([, bytes]) => bytes > 0);
}

/** @returns {Map<string, {bytes: number, importers: string[]}>} */
export function bundledPackages(metafile) {
  const packages = new Map();
  for (const [file, bytesInOutput] of scriptInputs(metafile)) {
    const name = packageOf(file);
    if (!name) continue;
    const entry = packages.get(name) ?? { bytes: 0, importers: [] };
    entry.bytes += bytesInOutput;
    packages.set(name, entry);
  }
  for (const [file, { imports = [] }] of Object.entries(metafile.inputs)) {
    const from = packageOf(file);
    for (const { path } of imports) {
      const to = path && packageOf(path);
      const entry = to && to !== from ? packages.get(to) : undefined;
      if (entry && !entry.importers.includes(file) && entry.importers.length < 5)
        entry.importers.push(file);
    }
  }
  return packages;
}

/** The files that add bytes to the script. */
export function bundledFiles(metafile) {
  return scriptInputs(metafile).map(([file]) => file);
}
