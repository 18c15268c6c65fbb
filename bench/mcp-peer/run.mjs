// memgov mcp beside the official MCP memory server (@modelcontextprotocol/server-memory),
// both over stdio and both driven by the official TypeScript client
// (@modelcontextprotocol/sdk): the same N memories written one call at a time,
// then the same searches, with writes per second and the p50 and p99 of each
// call, in one run; and for memgov the p50 and p99 of its governed write and
// of each step inside the process, from the outcomes it recorded.
//
//   npm install
//   MEMGOV_BIN=/path/to/memgov node run.mjs [--entries 3000] [--searches 300] [--json]
//
// memgov gets a scratch database (its policy without write rate limits, as the
// peer has none), an orchestrator principal and its token; the
// peer gets a scratch JSON-lines file. Nothing outside a temporary directory
// is touched.

import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const args = process.argv.slice(2);
const flag = (name, dflt) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : dflt;
};
const entries = Number(flag("--entries", "3000"));
const searches = Number(flag("--searches", "300"));
const asJSON = args.includes("--json");
const memgovBin = process.env.MEMGOV_BIN || "memgov";
if (!(entries > 0) || !(searches > 0)) {
  console.error("--entries and --searches take positive numbers");
  process.exit(2);
}

// A deterministic generator: the same texts and queries on every run.
let seed = 42;
const rnd = () => {
  seed = (seed * 1103515245 + 12345) % 2147483648;
  return seed / 2147483648;
};
const pick = (xs) => xs[Math.floor(rnd() * xs.length)];
const people = ["Ana", "Bruno", "Chen", "Dana", "Emeka", "Farah", "Goran", "Hana", "Ivo", "Jun", "Kemal", "Lena", "Mateo", "Nia", "Omar", "Priya"];
const things = ["invoice", "shipment", "contract", "ticket", "refund", "order", "renewal", "audit", "migration", "release", "workshop", "survey"];
const verbs = ["approved", "delayed", "reopened", "escalated", "signed", "cancelled", "scheduled", "paid", "reviewed", "shipped"];
const places = ["Leeds", "Porto", "Osaka", "Lagos", "Quito", "Tartu", "Bergen", "Austin", "Pune", "Graz"];
const days = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];
const texts = [];
for (let i = 0; i < entries; i++) {
  texts.push(`${pick(people)} ${pick(verbs)} ${pick(things)} ${1000 + i} for the ${pick(places)} office on ${pick(days)}.`);
}
const queries = [];
for (let i = 0; i < searches; i++) {
  const t = texts[Math.floor(rnd() * texts.length)].split(" ");
  queries.push(`${t[2]} ${t[3]}`); // e.g. "invoice 1234"
}

function stats(ms, wallMS) {
  const s = [...ms].sort((a, b) => a - b);
  const at = (q) => s[Math.min(s.length - 1, Math.floor(q * s.length))];
  return { n: s.length, per_second: (s.length * 1000) / wallMS, p50_ms: at(0.5), p99_ms: at(0.99) };
}

async function drive(name, transport, write, search) {
  const client = new Client({ name: "memgov-mcp-peer-bench", version: "1.0.0" });
  await client.connect(transport);
  const wlat = [];
  const outcomes = {};
  let t0 = performance.now();
  for (let i = 0; i < texts.length; i++) {
    const w0 = performance.now();
    const res = await client.callTool(write(i, texts[i]));
    wlat.push(performance.now() - w0);
    if (res.isError) {
      throw new Error(`${name}: write ${i}: ${JSON.stringify(res.content)}`);
    }
    const st = res.structuredContent?.status || "OK";
    outcomes[st] = (outcomes[st] || 0) + 1;
  }
  const writes = stats(wlat, performance.now() - t0);
  const slat = [];
  let hits = 0;
  t0 = performance.now();
  for (const q of queries) {
    const s0 = performance.now();
    const res = await client.callTool(search(q));
    slat.push(performance.now() - s0);
    if (res.isError) {
      throw new Error(`${name}: search ${q}: ${JSON.stringify(res.content)}`);
    }
    hits += search.count(res);
  }
  const reads = stats(slat, performance.now() - t0);
  await client.close();
  return { server: name, writes, outcomes, search: reads, mean_hits: hits / queries.length };
}

const dir = mkdtempSync(path.join(tmpdir(), "memgov-mcp-peer-"));
try {
  // memgov: a scratch database, an orchestrator, its token.
  const env = { ...process.env, MEMGOV_DB: path.join(dir, "memgov.db"), MEMGOV_KEY: "", NO_COLOR: "1" };
  const run = (...a) => execFileSync(memgovBin, a, { env, encoding: "utf8" });
  // The peer limits nothing, so memgov's write rate limits and burst
  // suspension are lifted (every gate still judges every write).
  writeFileSync(
    path.join(dir, "memgov.db.policy.yaml"),
    "rate_limits:\n  layers:\n    EPISODIC: {writes: 1000000, window: 1m}\nreputation:\n  burst_limit: 1000000\n",
  );
  run("init");
  run("principal", "add", "--id", "bench-agent", "--role", "orchestrator", "--tenant", "bench");
  const token = JSON.parse(run("token", "create", "--principal", "bench-agent", "--json", "--by", "bench", "--reason", "mcp peer bench")).token;
  const ref = "bench/bench-agent";

  const memgovSearch = (q) => ({ name: "search_memories", arguments: { memory_ref: ref, query: q, limit: 10 } });
  memgovSearch.count = (res) => res.structuredContent?.hits?.length || 0;
  const memgov = await drive(
    "memgov mcp",
    new StdioClientTransport({ command: memgovBin, args: ["mcp"], env: { ...env, MEMGOV_TOKEN: token }, stderr: "inherit" }),
    (i, text) => ({ name: "add_memory", arguments: { memory_ref: ref, key: `note-${i}`, text, wait: false } }),
    memgovSearch,
  );

  // What the same writes cost inside memgov (from their recorded outcomes):
  // the whole governed write and each of its steps, so the rest of a call's
  // time is the MCP door, the transport and the client.
  const m = JSON.parse(run("metrics", "--json"));
  const ms = (us) => us / 1000;
  memgov.in_process = { p50_ms: ms(m.validation_latency_us.p50), p99_ms: ms(m.validation_latency_us.p99) };
  memgov.steps = Object.fromEntries(
    Object.entries(m.validation_latency_us_by_stage)
      .sort((a, b) => b[1].p50 - a[1].p50)
      .map(([k, v]) => [k, { p50_ms: ms(v.p50), p99_ms: ms(v.p99) }]),
  );

  // The official memory server: a JSON-lines knowledge graph, an entity per memory.
  const require = createRequire(import.meta.url);
  const peerMain = require.resolve("@modelcontextprotocol/server-memory/dist/index.js");
  const peerSearch = (q) => ({ name: "search_nodes", arguments: { query: q } });
  peerSearch.count = (res) => res.structuredContent?.entities?.length ?? (JSON.parse(res.content?.[0]?.text || "{}").entities || []).length;
  const peer = await drive(
    "@modelcontextprotocol/server-memory",
    new StdioClientTransport({ command: process.execPath, args: [peerMain], env: { ...process.env, MEMORY_FILE_PATH: path.join(dir, "memory.jsonl") }, stderr: "inherit" }),
    (i, text) => ({ name: "create_entities", arguments: { entities: [{ name: `note-${i}`, entityType: "note", observations: [text] }] } }),
    peerSearch,
  );

  const report = { entries, searches, runs: [memgov, peer] };
  if (asJSON) {
    console.log(JSON.stringify(report, null, 2));
  } else {
    const f = (x) => x.toFixed(2);
    console.log(`${entries} entries written one call at a time, then ${searches} searches, over stdio:`);
    console.log("SERVER                               WRITES/S  WRITE P50 MS  WRITE P99 MS  SEARCH P50 MS  SEARCH P99 MS  MEAN HITS  OUTCOMES");
    for (const r of report.runs) {
      console.log(
        `${r.server.padEnd(36)} ${f(r.writes.per_second).padStart(8)}  ${f(r.writes.p50_ms).padStart(12)}  ${f(r.writes.p99_ms).padStart(12)}  ` +
          `${f(r.search.p50_ms).padStart(13)}  ${f(r.search.p99_ms).padStart(13)}  ${f(r.mean_hits).padStart(9)}  ${JSON.stringify(r.outcomes)}`,
      );
    }
    const f3 = (x) => x.toFixed(3);
    console.log(`\nmemgov's governed write inside the process (p50 ${f3(memgov.in_process.p50_ms)} ms, p99 ${f3(memgov.in_process.p99_ms)} ms), by step:`);
    console.log("STEP                 P50 MS   P99 MS");
    for (const [k, v] of Object.entries(memgov.steps)) {
      console.log(`${k.padEnd(18)} ${f3(v.p50_ms).padStart(8)} ${f3(v.p99_ms).padStart(8)}`);
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
