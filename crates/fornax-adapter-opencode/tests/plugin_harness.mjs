// Drives plugin/fornax.js the way opencode loads and calls it, for tests/plugin_js.rs.
// Usage: node plugin_harness.mjs <path to fornax.js> <capture|missing|dying>
// Prints one JSON summary line; exits non-zero if a hook threw, returned a value or was slow.
import { pathToFileURL } from "node:url";

const [pluginPath, scenario] = process.argv.slice(2);
const mod = await import(pathToFileURL(pluginPath).href);
// opencode calls every export as a plugin function.
for (const [name, value] of Object.entries(mod)) {
  if (typeof value !== "function") throw new Error(`export ${name} is not a plugin function`);
}
const hooks = await mod.FornaxPlugin({ client: {}, project: {}, directory: "/tmp", worktree: "/tmp" });

const sid = "ses_harness0000000000000001";
const timings = [];
async function call(name, ...args) {
  const started = performance.now();
  const result = await hooks[name](...args);
  timings.push(performance.now() - started);
  if (result !== undefined) throw new Error(`${name} returned ${JSON.stringify(result)}`);
}
const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// An object shared by two branches (not a cycle) and a real cycle.
const model = { providerID: "anthropic", modelID: "claude-sonnet-4-5" };
const cyclic = { note: "loops back" };
cyclic.self = cyclic;

async function oneSession() {
  await call("event", { event: { type: "session.created", properties: { info: { id: sid, version: "1.1.53", projectID: "global", directory: "/tmp/harness", title: "Harness", time: { created: 1772000000000, updated: 1772000000000 } } } } });
  const message = { id: "msg_h0001", sessionID: sid, role: "user", time: { created: 1772000001000 }, agent: "build", model };
  const parts = [{ id: "prt_h0001", sessionID: sid, messageID: "msg_h0001", type: "text", text: "run the tests" }];
  await call("chat.message", { sessionID: sid, agent: "build", model, messageID: "msg_h0001" }, { message, parts });
  await call("tool.execute.before", { tool: "bash", sessionID: sid, callID: "call_h0001" }, { args: { command: "npm test" } });
  await call("tool.execute.after", { tool: "bash", sessionID: sid, callID: "call_h0001" }, { title: "npm test", output: "Tests: 3 passed\n", metadata: { exit: 0, output: "Tests: 3 passed\n" } });
  await call("event", { event: { type: "tui.toast.show", properties: { message: "x".repeat(2 * 1024 * 1024), cyclic } } });
  await call("event", { event: { type: "session.idle", properties: { sessionID: sid } } });
}

if (scenario === "capture") {
  await oneSession();
} else {
  // With no usable child: call through several respawn back-offs.
  for (let round = 0; round < 3; round++) {
    await oneSession();
    await pause(700);
  }
}
const slowest = Math.max(...timings);
console.log(JSON.stringify({ scenario, calls: timings.length, slowestMs: Math.round(slowest) }));
if (slowest > 1000) process.exit(3);
