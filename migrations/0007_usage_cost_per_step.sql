ALTER TABLE `usage` ADD `turn_id` text;--> statement-breakpoint
ALTER TABLE `usage` ADD `message_id` text;--> statement-breakpoint
ALTER TABLE `usage` ADD `step` integer;--> statement-breakpoint
ALTER TABLE `usage` ADD `reasoning_tokens` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `usage` ADD `cost_usd` real;--> statement-breakpoint
CREATE INDEX `usage_conversation_idx` ON `usage` (`conversation_id`,`message_id`);