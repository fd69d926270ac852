ALTER TABLE `conversations` ADD `parent_conversation_id` text;--> statement-breakpoint
ALTER TABLE `conversations` ADD `branched_from_message_id` text;--> statement-breakpoint
ALTER TABLE `conversations` ADD `branched_from_step` integer;--> statement-breakpoint
ALTER TABLE `conversations` ADD `branch_seq` integer;--> statement-breakpoint
CREATE INDEX `conversations_parent_idx` ON `conversations` (`parent_conversation_id`);