// Runs a module's test functions under MicroPython (the WebAssembly port) in Node.js.
//
//   node run_module.mjs <micropython package dir> <module> <file.py>...
//
// The files are copied side by side into MicroPython's in-memory file system (as they sit on
// the board), then `<module>.run_all()` prints one PASS or FAIL line per test function.
// Exit status: 0 when every test passed, 1 when some failed, 2 when the run itself broke.
import { readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { pathToFileURL } from "node:url";

const [packageDir, moduleName, ...files] = process.argv.slice(2);
if (!packageDir || !moduleName || files.length === 0) {
  console.error("usage: node run_module.mjs <package dir> <module> <file.py>...");
  process.exit(2);
}
const { loadMicroPython } = await import(pathToFileURL(join(packageDir, "micropython.mjs")).href);
const mp = await loadMicroPython({
  heapsize: 16 * 1024 * 1024,
  stdout: (line) => process.stdout.write(line + "\n"),
  stderr: (line) => process.stderr.write(line + "\n"),
});
mp.FS.mkdir("/board");
for (const file of files) {
  mp.FS.writeFile("/board/" + basename(file), readFileSync(file));
}
try {
  mp.runPython(
    [
      "import sys",
      "sys.path.insert(0, '/board')",
      "print('IMPLEMENTATION ' + sys.implementation.name)",
      `import ${moduleName}`,
      `_failures = ${moduleName}.run_all()`,
      "print('FAILURES %d' % _failures)",
    ].join("\n"),
  );
  const failures = Number(mp.globals.get("_failures"));
  process.exit(failures === 0 ? 0 : 1);
} catch (error) {
  console.error(String(error && error.message ? error.message : error));
  process.exit(2);
}
