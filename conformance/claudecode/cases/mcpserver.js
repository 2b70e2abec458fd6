// A stand-in MCP server for the conformance cases: over stdio it offers
// two tools, "echo" and "write_note", and answers a call with a line of
// text naming the tool. It does nothing else: a call that runs is seen in
// the text Claude Code sends back.
const readline = require("readline");
const tools = [
  { name: "echo", description: "Echo the text.", inputSchema: { type: "object", properties: { text: { type: "string" } } } },
  { name: "write_note", description: "Pretend to write a note.", inputSchema: { type: "object", properties: { text: { type: "string" } } } },
];
const reply = (id, result) => process.stdout.write(JSON.stringify({ jsonrpc: "2.0", id, result }) + "\n");
readline.createInterface({ input: process.stdin }).on("line", (line) => {
  let msg;
  try { msg = JSON.parse(line); } catch { return; }
  if (msg.id === undefined) return;
  switch (msg.method) {
    case "initialize":
      return reply(msg.id, { protocolVersion: msg.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: "standin", version: "1.0.0" } });
    case "tools/list":
      return reply(msg.id, { tools });
    case "tools/call":
      return reply(msg.id, { content: [{ type: "text", text: "stand-in MCP tool " + msg.params.name + " ran" }] });
    default:
      return process.stdout.write(JSON.stringify({ jsonrpc: "2.0", id: msg.id, error: { code: -32601, message: "unknown method" } }) + "\n");
  }
});
