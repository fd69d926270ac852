-- A server saved under the built-in server's name ('mcp-remote') before that name was refused
-- was listed but never used: the built-in server's tools go by that name. Each gets a name of its
-- own ('mcp-remote-' and the start of its id, unique per user as the index needs), so it works.
UPDATE `mcp_servers` SET `name` = 'mcp-remote-' || substr(`id`, 1, 8) WHERE `name` = 'mcp-remote';
