CREATE TABLE `tool_policies` (
	`user_id` text NOT NULL,
	`server` text NOT NULL,
	`tool` text DEFAULT '' NOT NULL,
	`policy` text NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	PRIMARY KEY(`user_id`, `server`, `tool`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
