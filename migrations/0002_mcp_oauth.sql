CREATE TABLE `mcp_oauth_connections` (
	`server_id` text NOT NULL,
	`user_id` text NOT NULL,
	`status` text NOT NULL,
	`error_code` text,
	`error_message` text,
	`client_info` text,
	`tokens` text,
	`discovery` text,
	`redirect_url` text,
	`scopes` text,
	`account` text,
	`expires_at` integer,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`server_id`) REFERENCES `mcp_servers`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `mcp_oauth_connections_pk` ON `mcp_oauth_connections` (`server_id`,`user_id`);--> statement-breakpoint
CREATE INDEX `mcp_oauth_connections_user_idx` ON `mcp_oauth_connections` (`user_id`);--> statement-breakpoint
CREATE TABLE `mcp_oauth_pending` (
	`state_hash` text PRIMARY KEY NOT NULL,
	`server_id` text NOT NULL,
	`user_id` text NOT NULL,
	`code_verifier` text,
	`display` text DEFAULT 'popup' NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`server_id`) REFERENCES `mcp_servers`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `mcp_oauth_pending_user_idx` ON `mcp_oauth_pending` (`user_id`);