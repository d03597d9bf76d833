// npm run test:stress: very large inputs and bounds in real time, kept out of npm test so that
// its result does not depend on how busy the machine is. .ci/run runs these too.
import { defineConfig } from "vitest/config";
import base from "./vitest.config.js";

export default defineConfig({
  ...base,
  test: {
    ...base.test,
    include: ["src/**/*.stress.test.ts", "test/**/*.stress.test.ts"],
    exclude: ["**/node_modules/**"],
    // One file at a time: each measures time, which another file beside it would take.
    fileParallelism: false,
    testTimeout: 60_000,
  },
});
