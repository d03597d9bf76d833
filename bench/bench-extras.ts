// Packages only a few benches compare against (LangGraph.js and its SQLite checkpointer) are not
// in package.json: a contributor who runs `npm install` to work on planloop does not download
// them. `npm run bench:extras` installs the versions the numbers in the docs were measured with.

/** Imports a bench-only package, or stops the bench with the command that installs it. */
export async function loadBenchExtra<T>(name: string): Promise<T> {
  try {
    return (await import(name)) as T;
  } catch (error) {
    if ((error as { code?: string }).code !== "ERR_MODULE_NOT_FOUND") throw error;
    console.error(`${name} is not installed: this part of the bench compares against it. Run \`npm run bench:extras\` first.`);
    process.exit(2);
  }
}
