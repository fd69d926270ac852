CREATE TABLE `graph_links` (
	`conversation_id` text NOT NULL,
	`source` text NOT NULL,
	`target` text NOT NULL,
	`type` text DEFAULT 'related_to' NOT NULL,
	`properties` text DEFAULT '{}' NOT NULL,
	PRIMARY KEY(`conversation_id`, `source`, `target`, `type`),
	FOREIGN KEY (`conversation_id`) REFERENCES `conversations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `graph_links_target_idx` ON `graph_links` (`conversation_id`,`target`);--> statement-breakpoint
CREATE TABLE `graph_nodes` (
	`conversation_id` text NOT NULL,
	`id` text NOT NULL,
	`label` text NOT NULL,
	`type` text DEFAULT 'entity' NOT NULL,
	`properties` text DEFAULT '{}' NOT NULL,
	PRIMARY KEY(`conversation_id`, `id`),
	FOREIGN KEY (`conversation_id`) REFERENCES `conversations`(`id`) ON UPDATE no action ON DELETE cascade
);
