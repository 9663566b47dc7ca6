// A miniature candidate in Node (no Python, so no egress guard): on every `run` it tries to
// leave loopback (a UDP datagram, as an analytics client sends, a TCP connection, a DNS lookup),
// and only inside toolproof's observed namespace (its only interfaces: lo and the observer's TUN),
// where each attempt is recorded and refused: outside it, it never tries at all.
// `node egress_miniature.mjs [--polite]` (--polite: never tries).
import dgram from "node:dgram";
import dns from "node:dns/promises";
import fs from "node:fs";
import net from "node:net";
import readline from "node:readline";

const POLITE = process.argv.includes("--polite");
const HELLO = {
  ok: true,
  protocol: 1,
  implementation: { name: "egress-miniature-node", version: "0", language: "javascript" },
  capabilities: ["openai.chat"],
};

function observed() {
  const lines = fs.readFileSync("/proc/net/dev", "utf8").split("\n").slice(2);
  const names = lines.filter((line) => line.includes(":")).map((line) => line.split(":")[0].trim());
  return names.sort().join(",") === "lo,tpegress0";
}

function udp() {
  // Connected, so the observer's ICMP port unreachable comes back as an error. The observer reads
  // its packets in order: by the time the TCP attempt below is refused, the datagram is recorded.
  return new Promise((resolve) => {
    const sock = dgram.createSocket("udp4");
    let finished = false;
    const done = (what) => {
      if (finished) return;
      finished = true;
      sock.close();
      resolve(what);
    };
    sock.on("error", (err) => done(err.code));
    sock.connect(8125, "198.51.100.9", () => {
      sock.send("toolproof.metric:1|c", (err) => (err ? done(err.code) : setTimeout(() => done("sent"), 500)));
    });
  });
}

function tcp() {
  return new Promise((resolve) => {
    const sock = net.connect({ host: "203.0.113.7", port: 443 });
    sock.on("connect", () => { sock.destroy(); resolve("connected"); });
    sock.on("error", (err) => resolve(err.code));
  });
}

async function leaveLoopback() {
  if (!observed()) return ["unobserved: nothing attempted"];
  const outcomes = [await udp(), await tcp()];
  try {
    await dns.lookup("example.invalid");
    outcomes.push("resolved");
  } catch (err) {
    outcomes.push(err.code);
  }
  return outcomes;
}

const built = new Set();
async function answer(request) {
  switch (request.op) {
    case "hello":
      return HELLO;
    case "build":
      built.add(request.id);
      return { ok: true };
    case "run": {
      const outcomes = POLITE ? [] : await leaveLoopback();
      if (!built.has(request.id)) {
        return { ok: false, error: { kind: "internal", message: `unknown id ${request.id}: ${outcomes}` } };
      }
      return { ok: true, output: outcomes.join(" "), stop_reason: "completed" };
    }
    case "close":
      if (!built.delete(request.id)) return { ok: false, error: { kind: "internal", message: "unknown id" } };
      return { ok: true };
    default:
      return { ok: false, error: { kind: "internal", message: `unknown op ${request.op}` } };
  }
}

// One request at a time, in order.
let queue = Promise.resolve();
readline.createInterface({ input: process.stdin }).on("line", (line) => {
  queue = queue.then(async () => process.stdout.write(JSON.stringify(await answer(JSON.parse(line))) + "\n"));
});
