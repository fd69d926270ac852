// Placeholder until the MCP server lands: a health route only.
export default {
  async fetch(request: Request): Promise<Response> {
    const url = new URL(request.url);
    if (url.pathname === "/health") return Response.json({ ok: true, service: "mcp-remote" });
    return Response.json({ error: { code: "not_found", message: "Not found" } }, { status: 404 });
  },
} satisfies ExportedHandler;
